"use client";
// The create form's optional "Back-half" (your own code instead of a generated one): suggested
// from the name ("Summer Menu 2026" → summer-menu-2026) until the person types their own or
// clears it; the API decides whether it may be used.
import { useState } from "react";

/** The back-half a name suggests: lower case ASCII letters and digits joined by `-`, at most 64 characters. */
export const suggestedBackHalf = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 64)
    .replace(/^-+|-+$/g, "");

/** The back-half to send for `name` (undefined: a generated code), and the field that shows it. */
export function useBackHalf(name: string) {
  // null until the person edits the field: until then it follows the name.
  const [typed, setTyped] = useState<string | null>(null);
  const value = typed ?? suggestedBackHalf(name);
  return {
    code: value === "" ? undefined : value,
    reset: () => setTyped(null),
    field: (id: string) => (
      <div>
        <label htmlFor={id}>Back-half</label>
        <input
          id={id}
          value={value}
          onChange={(e) => setTyped(e.target.value)}
          maxLength={64}
          placeholder="generated"
          aria-describedby={`${id}-hint`}
        />
      </div>
    ),
    /** Under the form, full width: what the field is for. */
    hint: (id: string, domain = "") => (
      <p id={`${id}-hint`} className="muted full">
        Back-half (optional): the short link is{" "}
        <code>
          {domain ? `https://${domain}/` : "…/q/"}
          {value || "<generated>"}
        </code>
        . Up to 64 of 0-9, A-Z, a-z, _ and -; suggested from the name.
      </p>
    ),
  };
}
