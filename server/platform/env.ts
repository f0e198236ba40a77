// The configuration, read from the environment once and validated here, in the way of t3's
// createEnv: every variable of the README's table with its default and rule. A bad value stops
// the process at start with the variable's name and what it must be, instead of failing
// every request. Nothing else reads process.env (an ESLint rule enforces it).
import { z } from "zod";
import { backendOf, DEFAULT_DATABASE_URL } from "./database-url";
import { processSingleton } from "./process-singleton";

const unset = (value: unknown) => (value === "" ? undefined : value);
/** An optional variable: empty counts as unset. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(unset, schema.optional());

const integer = (name: string, min: number, fallback: number) =>
  z.preprocess(
    unset,
    z.coerce
      .number({ error: `${name} must be an integer` })
      .int(`${name} must be an integer`)
      .min(min, `${name} must be at least ${min}`)
      .default(fallback),
  );
const positive = (name: string, fallback: number) =>
  z.preprocess(
    unset,
    z.coerce
      .number({ error: `${name} must be a positive number` })
      .positive(`${name} must be a positive number`)
      .default(fallback),
  );
const baseUrl = (name: string) =>
  optional(
    z
      .url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` })
      .transform((url) => url.replace(/\/+$/, "")),
  );
const flag = (name: string, on = false) =>
  z
    .preprocess(
      unset,
      z.enum(["1", "true", "0", "false"], { error: `${name} must be 1, true, 0 or false` }).default(on ? "1" : "0"),
    )
    .transform((v) => v === "1" || v === "true");

const schema = z
  .object({
    NODE_ENV: z.preprocess(unset, z.enum(["development", "production", "test"]).default("development")),
    DATABASE_URL: z.preprocess(
      unset,
      z
        .string()
        .default(DEFAULT_DATABASE_URL)
        .refine(
          (url) => /^(file:|postgres(ql)?:\/\/)/.test(url),
          "DATABASE_URL must start with file: (SQLite) or postgresql: (PostgreSQL)",
        ),
    ),
    PORT: integer("PORT", 1, 3000),
    HOST: z.preprocess(unset, z.string().default("0.0.0.0")),
    APP_URL: baseUrl("APP_URL"),
    NEXTAUTH_URL: baseUrl("NEXTAUTH_URL"),
    SHORT_BASE_URL: baseUrl("SHORT_BASE_URL"),
    // Checked for strength by server/platform/secrets.ts, which also generates them for embedded SQLite.
    NEXTAUTH_SECRET: optional(z.string()),
    VISITOR_HASH_SECRET: optional(z.string()),
    API_KEY_ACTIVATION_DELAY_SECONDS: integer("API_KEY_ACTIVATION_DELAY_SECONDS", 0, 0),
    TRUST_PROXY: flag("TRUST_PROXY"),
    TRUST_PROXY_COUNTRY_HEADER: optional(
      z
        .string()
        .regex(/^[A-Za-z0-9-]+$/, "TRUST_PROXY_COUNTRY_HEADER must be a header name")
        .transform((name) => name.toLowerCase()),
    ),
    GEOIP_DATABASE_FILE: optional(z.string()),
    REDIS_URL: optional(z.string().regex(/^rediss?:\/\//, "REDIS_URL must start with redis:// or rediss://")),
    REDIS_KEY_PREFIX: z.preprocess((v) => v ?? undefined, z.string().default("qr:")),
    RATE_LIMIT_PERSONAL_DAILY_QUOTA: positive("RATE_LIMIT_PERSONAL_DAILY_QUOTA", 2000),
    RATE_LIMIT_BUSINESS_DAILY_QUOTA: positive("RATE_LIMIT_BUSINESS_DAILY_QUOTA", 10000),
    INVALID_KEY_LIMIT_BURST: positive("INVALID_KEY_LIMIT_BURST", 60),
    INVALID_KEY_LIMIT_PER_SECOND: positive("INVALID_KEY_LIMIT_PER_SECOND", 1),
    SIGNUP_LIMIT_PER_HOUR: positive("SIGNUP_LIMIT_PER_HOUR", 30),
    WEBHOOK_RETRY_SCALE: positive("WEBHOOK_RETRY_SCALE", 1),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: flag("WEBHOOK_ALLOW_PRIVATE_NETWORKS"),
    WEBHOOK_ALLOWED_PORTS: z.preprocess(
      unset,
      z
        .string()
        .default("443")
        .transform((list) => list.split(",").map((port) => port.trim()))
        .refine(
          (ports) => ports.every((port) => /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535),
          "WEBHOOK_ALLOWED_PORTS must be a comma-separated list of ports from 1 to 65535",
        )
        .transform((ports) => [...new Set(ports.map(Number))]),
    ),
    DNS_SERVERS: z.preprocess(
      unset,
      z
        .string()
        .transform((list) => list.split(",").map((server) => server.trim()))
        .refine(
          (servers) =>
            servers.every((server) => {
              const match = /^(\[[0-9a-fA-F:.]+\]|[0-9.]+):(\d{1,5})$/.exec(server);
              return match !== null && Number(match[2]) >= 1 && Number(match[2]) <= 65535;
            }),
          "DNS_SERVERS must be a comma-separated list of host:port with an IP address as host (127.0.0.1:53, [::1]:53)",
        )
        .optional(),
    ),
    METRICS_TOKEN: optional(z.string().min(16, "METRICS_TOKEN must be at least 16 characters")),
    METRICS: flag("METRICS", true),
    LOG_LEVEL: z.preprocess(
      unset,
      z
        .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
          error: "LOG_LEVEL must be fatal, error, warn, info, debug, trace or silent",
        })
        .default("info"),
    ),
    LOG_SHORT_LINKS: flag("LOG_SHORT_LINKS"),
    SMTP_URL: optional(z.string().regex(/^smtps?:\/\/[^/]/, "SMTP_URL must start with smtp:// or smtps://")),
    MAIL_FROM: z.preprocess(
      unset,
      z
        .string()
        .regex(
          /^[^\r\n]+@[^\r\n]+$/,
          "MAIL_FROM must be an email address, optionally with a name: QR Records <no-reply@example.com>",
        )
        .default("QR Records <no-reply@localhost>"),
    ),
    MAIL_OUTBOX: flag("MAIL_OUTBOX"),
    MAIL_OUTBOX_DIR: z.preprocess(unset, z.string().default("./data/outbox")),
    CLOCK_OFFSET_SECONDS: z.preprocess(
      unset,
      z.coerce
        .number({ error: "CLOCK_OFFSET_SECONDS must be a number of seconds" })
        .finite("CLOCK_OFFSET_SECONDS must be a number of seconds")
        .default(0),
    ),
    SCAN_EVENT_RETENTION_DAYS: optional(
      z.coerce
        .number({ error: "SCAN_EVENT_RETENTION_DAYS must be a whole number of days, 1 or more" })
        .int("SCAN_EVENT_RETENTION_DAYS must be a whole number of days, 1 or more")
        .min(1, "SCAN_EVENT_RETENTION_DAYS must be a whole number of days, 1 or more"),
    ),
    SCAN_SPOOL: flag("SCAN_SPOOL", true),
    SCAN_SPOOL_DIR: z.preprocess(unset, z.string().default("./data/spool")),
    SCAN_SPOOL_FSYNC_MS: integer("SCAN_SPOOL_FSYNC_MS", 0, 1000),
    SCAN_MEMORY_SCANS: integer("SCAN_MEMORY_SCANS", 1000, 20_000),
    SCAN_WRITER_TEST_PAUSE_MS: integer("SCAN_WRITER_TEST_PAUSE_MS", 0, 0),
    BACKGROUND_THREAD_TEST_EXIT_AT: integer("BACKGROUND_THREAD_TEST_EXIT_AT", 0, 0),
    SERVE_PAGES: flag("SERVE_PAGES", true),
    SHUTDOWN_DRAIN_SECONDS: z.preprocess(
      unset,
      z.coerce
        .number({ error: "SHUTDOWN_DRAIN_SECONDS must be a number of seconds, 0 or more" })
        .min(0, "SHUTDOWN_DRAIN_SECONDS must be a number of seconds, 0 or more")
        .default(5),
    ),
  })
  .transform((v) => {
    // The default follows the port the server listens on, so a server on PORT=3900 prints codes that reach it.
    const appUrl = v.APP_URL ?? v.NEXTAUTH_URL ?? `http://localhost:${v.PORT}`;
    return {
      development: v.NODE_ENV === "development",
      databaseUrl: v.DATABASE_URL,
      backend: backendOf(v.DATABASE_URL),
      port: v.PORT,
      host: v.HOST,
      /** The app's public base URL; used for links and as the default short base URL. */
      appUrl,
      shortBaseUrl: v.SHORT_BASE_URL ?? appUrl,
      secrets: { NEXTAUTH_SECRET: v.NEXTAUTH_SECRET, VISITOR_HASH_SECRET: v.VISITOR_HASH_SECRET },
      keyActivationDelaySeconds: v.API_KEY_ACTIVATION_DELAY_SECONDS,
      trustProxy: v.TRUST_PROXY,
      /** Lower-case name of the trusted edge's country header, or null. */
      countryHeader: v.TRUST_PROXY_COUNTRY_HEADER ?? null,
      geoipDatabaseFile: v.GEOIP_DATABASE_FILE ?? null,
      redisUrl: v.REDIS_URL ?? null,
      redisKeyPrefix: v.REDIS_KEY_PREFIX,
      personalDailyQuota: v.RATE_LIMIT_PERSONAL_DAILY_QUOTA,
      businessDailyQuota: v.RATE_LIMIT_BUSINESS_DAILY_QUOTA,
      invalidKeyBurst: v.INVALID_KEY_LIMIT_BURST,
      invalidKeyPerSecond: v.INVALID_KEY_LIMIT_PER_SECOND,
      /** Sign-ups one client address may make in an hour (a burst of as many, refilled over the hour). */
      signupPerHour: v.SIGNUP_LIMIT_PER_HOUR,
      /** Multiplies the webhook retry delays (and the 5 days after which a failing endpoint is disabled). */
      webhookRetryScale: v.WEBHOOK_RETRY_SCALE,
      /** Also lifts WEBHOOK_ALLOWED_PORTS and the https-only rule (server/webhooks/address.ts). */
      webhookAllowPrivateNetworks: v.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      /** The ports webhook endpoints may use (443 by default). */
      webhookAllowedPorts: v.WEBHOOK_ALLOWED_PORTS,
      /** With it, /metrics asks for `Authorization: Bearer <token>`; without it, loopback clients only. */
      metricsToken: v.METRICS_TOKEN ?? null,
      /** The DNS servers a custom domain's TXT record is looked up on (`host:port`); null: the system's resolver. */
      dnsServers: v.DNS_SERVERS ?? null,
      /** METRICS=0: nothing counted (the benchmark's baseline); /metrics still answers. */
      metricsEnabled: v.METRICS,
      logLevel: v.LOG_LEVEL,
      /** Access lines for /q requests too. */
      logShortLinks: v.LOG_SHORT_LINKS,
      /** SERVE_PAGES=0: an instance for /v1 and /q only, which never starts Next (README, "Running in production"). */
      servePages: v.SERVE_PAGES,
      /** How long a SIGTERM'd instance keeps serving, /readyz 503, before it closes connections. */
      shutdownDrainSeconds: v.SHUTDOWN_DRAIN_SECONDS,
      /** Raw scan events older than this many days are deleted (the rollups keep counting them); null keeps them forever. */
      scanEventRetentionDays: v.SCAN_EVENT_RETENTION_DAYS ?? null,
      /** smtp(s):// URL of the mail server, or null: mails are then written to data/outbox/. */
      smtpUrl: v.SMTP_URL ?? null,
      // Mail that nobody receives would lock people out for good (resets, verification): a
      // production server needs an SMTP server, unless told outright to write the outbox (the
      // README's demo command does, for the embedded database it seeds). Checked when the
      // server starts (server/http/server.ts), not here: `next build` loads this too.
      mailProblem:
        v.SMTP_URL === undefined && v.NODE_ENV === "production" && !v.MAIL_OUTBOX
          ? "SMTP_URL is required with NODE_ENV=production (or MAIL_OUTBOX=1 to write mails to data/outbox/ instead)"
          : null,
      mailFrom: v.MAIL_FROM,
      /** Where mails go as .eml files when there is no SMTP server. */
      mailOutboxDir: v.MAIL_OUTBOX_DIR,
      /** SCAN_SPOOL=0: no spool (the benchmark's baseline): a kill -9 loses the scans still in memory. */
      scanSpool: v.SCAN_SPOOL,
      /** The production server's scan spool: a directory of its own per instance (server/scan/spool). */
      scanSpoolDir: v.SCAN_SPOOL_DIR,
      /** How often the spool is synced to the disk; 0: before every answer. */
      scanSpoolFsyncMs: v.SCAN_SPOOL_FSYNC_MS,
      /** Unwritten scans held in memory at most; with a spool, a backlog beyond it waits there (server/scan/recorder.ts). */
      scanMemoryScans: v.SCAN_MEMORY_SCANS,
      /** Tests only: the scan writer waits this long after each batch's commit, before its checkpoint. */
      scanWriterTestPauseMs: v.SCAN_WRITER_TEST_PAUSE_MS,
      /** Tests only: each background thread dies (an uncaught error) when its Nth batch arrives; 0: never. */
      backgroundThreadTestExitAt: v.BACKGROUND_THREAD_TEST_EXIT_AT,
      /** Added to the server's clock for expiry rules (tokens, invitations, retention): tests move time with it. */
      clockOffsetSeconds: v.CLOCK_OFFSET_SECONDS,
    };
  });

export type Env = z.infer<typeof schema>;

/** The configuration of `source`, or the list of what is wrong with it. */
export function parseEnv(source: Record<string, string | undefined>): { env: Env } | { problems: string[] } {
  const parsed = schema.safeParse(source);
  return parsed.success ? { env: parsed.data } : { problems: parsed.error.issues.map((issue) => issue.message) };
}

function load(): Env {
  // next-auth reads NEXTAUTH_URL itself, and an empty one is an invalid URL on every page:
  // empty counts as unset for it too.
  if (process.env.NEXTAUTH_URL === "") delete process.env.NEXTAUTH_URL;
  const parsed = parseEnv(process.env);
  if ("env" in parsed) {
    // next-auth reads NEXTAUTH_URL itself (and warns on every start without it): the app's URL.
    process.env.NEXTAUTH_URL ??= parsed.env.appUrl;
    return parsed.env;
  }
  // The process stops here, before it listens, with the reason and no stack trace to read past.
  console.error(`Refusing to start: ${parsed.problems.join("; ")}`);
  process.exit(1);
}

/**
 * The process's configuration. Tests that need another value for a moment (an activation
 * delay) set it here and put it back; nothing else writes it.
 */
export const env: Env = processSingleton("env", load);
