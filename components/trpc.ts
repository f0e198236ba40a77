"use client";
// The web pages' tRPC client.
import { createTRPCClient, httpLink } from "@trpc/client";
import type { AppRouter } from "@/server/api/root";

export const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: "/api/trpc" })] });

/** A message a person can act on, from whatever a call threw. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : "Something went wrong");
