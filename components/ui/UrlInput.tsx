"use client";
// Every URL field of the pages: an address typed without a scheme (example.com/menu) is
// completed to https:// when the field is left or Enter is pressed, so the person sees what
// will be saved before saving.
import type { InputHTMLAttributes } from "react";

/** `example.com/menu` → `https://example.com/menu`; a URL with a scheme (https:, mailto:, WIFI:) or nothing stays. */
export function completeUrl(typed: string): string {
  const text = typed.trim();
  if (text === "" || /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text)) return typed;
  // `host:8080/x` is a port, not a scheme.
  return `https://${text.replace(/^\/\//, "")}`;
}

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "value" | "onChange"> & {
  value: string;
  onValue: (url: string) => void;
};

export function UrlInput({ value, onValue, onBlur, onKeyDown, ...rest }: Props) {
  const complete = (input: HTMLInputElement) => {
    const done = completeUrl(input.value);
    if (done === input.value) return;
    // Set at once too: Enter submits the form before React renders the new value.
    input.value = done;
    onValue(done);
  };
  return (
    <input
      {...rest}
      type="url"
      value={value}
      onChange={(e) => onValue(e.target.value)}
      onBlur={(e) => {
        complete(e.currentTarget);
        onBlur?.(e);
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter") complete(e.currentTarget);
        onKeyDown?.(e);
      }}
    />
  );
}
