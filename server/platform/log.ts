// Structured logs (contract: "Operations"): one JSON line per event on stderr, with pino (MIT),
// at LOG_LEVEL (default info). Keys, passwords, session cookies, tokens, raw client addresses
// and webhook secrets never appear: callers do not pass them, and the redaction list below
// censors them wherever a field of that name turns up anyway (tests/unit/log.unit.test.ts, and
// tests/instances/logs.integration.test.ts greps a whole server's log for them).
import pino, { type DestinationStream, type Logger } from "pino";
import { env } from "./env";
import { processSingleton } from "./process-singleton";

/** Field names whose values never reach a log line, at the top level and one level down. */
export const REDACTED_FIELDS = [
  "key",
  "apiKey",
  "api_key",
  "x-api-key",
  "password",
  "newPassword",
  "currentPassword",
  "passwordHash",
  "secret",
  "token",
  "cookie",
  "set-cookie",
  "authorization",
  "address",
  "ip",
  "remoteAddress",
  "x-forwarded-for",
  "visitor",
] as const;

export const REDACT_PATHS = REDACTED_FIELDS.flatMap((name) =>
  /^[A-Za-z_]\w*$/.test(name) ? [name, `*.${name}`] : [`["${name}"]`, `*["${name}"]`],
);

/** A logger with the redaction list, writing to `destination` (the tests' own stream, or stderr). */
export function makeLogger(destination: DestinationStream, level: string = env.logLevel): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      messageKey: "message",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    destination,
  );
}

// Synchronous writes to stderr: a line is out before the process can exit (SIGTERM, a crash).
const logger = processSingleton("log", () => makeLogger(pino.destination({ dest: 2, sync: true })));

const errorFields = (error: unknown) =>
  error instanceof Error
    ? { error: error.message, stack: error.stack }
    : error === undefined
      ? {}
      : { error: String(error) };

/** An event that went wrong. Never pass keys, passwords or raw addresses here. */
export function logError(event: string, fields: Record<string, unknown>, error?: unknown): void {
  logger.error({ event, ...fields, ...errorFields(error) });
}

export function logWarn(event: string, fields: Record<string, unknown>, error?: unknown): void {
  logger.warn({ event, ...fields, ...errorFields(error) });
}

export function logInfo(event: string, fields: Record<string, unknown> = {}): void {
  logger.info({ event, ...fields });
}

export function logDebug(event: string, fields: Record<string, unknown> = {}): void {
  if (logger.isLevelEnabled("debug")) logger.debug({ event, ...fields });
}

/** Whether access lines are written (LOG_LEVEL info or finer). */
export const accessLogOn = (): boolean => logger.isLevelEnabled("info");

/** One access line: request id, route template (never the raw path), method, status, duration. */
export function logRequest(fields: {
  requestId: string;
  route: string;
  method: string;
  status: number;
  ms: number;
}): void {
  logger.info({ event: "request", ...fields });
}
