// The web pages' tRPC in a page's server render (t3's trpc/server): the same procedures, called
// in process with the session's context, filling a query cache that HydrateClient hands to the
// browser's, so the page's client components find their data there and do not fetch it again.
import { randomUUID } from "node:crypto";
import { dehydrate, HydrationBoundary, type FetchQueryOptions, type QueryKey } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { cache, createElement } from "react";
import { appRouter } from "@/server/api/root";
import type { Context } from "@/server/api/trpc";
import { sessionUserId } from "@/server/accounts/auth";
import { makeQueryClient } from "./query-client";

/** One query cache per request. */
export const getQueryClient = cache(makeQueryClient);

/** The context /api/trpc builds for a call from the pages (app/api/trpc/[trpc]/route.ts), for the queries a page prefetches (no served hosts: they write nothing). */
const createContext = cache(async (): Promise<Context> => {
  const userId = await sessionUserId();
  return { requestId: randomUUID(), session: userId ? { userId } : null, principal: null };
});

export const trpc = createTRPCOptionsProxy({ router: appRouter, ctx: createContext, queryClient: getQueryClient });

/** Puts a query's answer in this request's cache (a failure is left for the browser to show). */
export function prefetch<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
): Promise<void> {
  return getQueryClient().prefetchQuery(options);
}

/** Hands what this request's cache holds to the browser's. */
export function HydrateClient({ children }: { children: React.ReactNode }) {
  return createElement(HydrationBoundary, { state: dehydrate(getQueryClient()) }, children);
}
