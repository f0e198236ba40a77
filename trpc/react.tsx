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

/** The address of /api/trpc: the page's own origin (the route checks it on POST: CSRF). */
const apiUrl = () => `${typeof window === "undefined" ? `http://localhost:${process.env.PORT ?? 3000}` : window.location.origin}/api/trpc`;

export function TRPCReactProvider({ children }: { children: React.ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: apiUrl() })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
