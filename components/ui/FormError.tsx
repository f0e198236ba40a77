"use client";
// A form's error, shown at that form: announced (role="alert") and focused when it appears, so
// a keyboard or screen-reader user lands on it instead of at the top of the page.
import { useEffect, useRef } from "react";

export function FormError({
  error,
  testId,
  className = "",
}: {
  error: string | null;
  testId?: string;
  className?: string;
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (error) ref.current?.focus();
  }, [error]);
  if (!error) return null;
  return (
    <p ref={ref} className={`error form-error ${className}`.trim()} role="alert" tabIndex={-1} data-testid={testId}>
      {error}
    </p>
  );
}
