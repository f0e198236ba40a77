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

/**
 * One action at a time in a section, its error shown at the row (or form) it is about and
 * focused; the section's next change clears it.
 */
export function useRowAction() {
  const action = useAction();
  const [at, setAt] = useState<string | null>(null);
  return {
    busy: action.busy,
    run: (where: string, work: () => Promise<unknown>) => {
      setAt(where);
      return action.run(work);
    },
    /** The error, if it belongs at `where`. */
    errorAt: (where: string) => (at === where ? action.error : null),
    clear: action.clear,
  };
}
