"use client";
import { useState } from "react";
import { useAction } from "./useAction";

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
