// Timestamps, one form per medium (README, "Timestamps"): JSON says epoch seconds (the
// records' toSeconds, server/library/validation.ts); CSV cells and the webhook envelope's
// `timestamp` say ISO 8601 UTC to the second, as here.

/** `2026-11-21T09:30:00Z`: ISO 8601 UTC, whole seconds. */
export const isoSeconds = (time: Date | number): string => new Date(time).toISOString().replace(/\.\d{3}Z$/, "Z");
