"use client";
// Copies a text (a short URL, recovery codes) to the clipboard, and says so for a moment.
import { useState } from "react";

export function CopyButton({ text, label = "Copy short URL" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary small"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        })
      }
    >
      {copied ? "Copied" : label}
    </button>
  );
}
