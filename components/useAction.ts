"use client";
import { useState } from "react";

/** A message a person can act on, from whatever a call threw. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : "Something went wrong");

/**
 * Runs a page action: busy while it runs, its error shown. A mutation's own invalidation
 * (its onSuccess) runs inside it, so the action ends once the page shows what it changed.
 */
export function useAction() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  /** Forgets the error (its form's input changed). */
  const clear = () => setError(null);
  return { error, busy, run, clear };
}
