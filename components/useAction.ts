"use client";
import { useState } from "react";
import { messageOf } from "./trpc";

/** Runs a page action: busy while it runs, its error shown, then what the page shows reloaded. */
export function useAction(reload: () => Promise<void>) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      await reload();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}
