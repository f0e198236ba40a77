// One JSON line per event on stderr. Never pass keys, passwords or raw addresses here.
export function logError(event: string, fields: Record<string, unknown>, error?: unknown): void {
  const detail = error instanceof Error ? { error: error.message, stack: error.stack } : error === undefined ? {} : { error: String(error) };
  console.error(JSON.stringify({ level: "error", time: new Date().toISOString(), event, ...fields, ...detail }));
}
