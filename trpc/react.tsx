"use client";
// The web pages' tRPC: query options for TanStack Query, through one query cache per browser tab.
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "@/server/api/root";
import { makeQueryClient } from "./query-client";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** What the procedures take and answer, as the browser sees them (dates as ISO strings). */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

let browserQueryClient: QueryClient | undefined;

function getQueryClient() {
  // A server render gets a new cache each time: no account's data reaches another's page.
  if (typeof window === "undefined") return makeQueryClient();
  // The browser keeps one, so a suspended first render does not lose it.
  return (browserQueryClient ??= makeQueryClient());
}

/**
 * The pages' own /api/trpc (the route checks the Origin on POST: CSRF). Only the browser
 * calls it: the server render reads what the page prefetched (trpc/server.ts).
 */
const API_URL = "/api/trpc";

export function TRPCReactProvider({ children }: { children: React.ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: API_URL })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
