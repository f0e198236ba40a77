import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseEnv } from "../../server/platform/env";

const problems = (source: Record<string, string>) => {
  const parsed = parseEnv(source);
  return "problems" in parsed ? parsed.problems : [];
};

describe("configuration", () => {
  it("every variable has its default", () => {
    const parsed = parseEnv({});
    assert.ok("env" in parsed);
    const { env } = parsed;
    assert.equal(env.databaseUrl, "file:./data/qr.db");
    assert.equal(env.backend, "sqlite");
    assert.deepEqual([env.port, env.host], [3000, "0.0.0.0"]);
    assert.deepEqual([env.appUrl, env.shortBaseUrl], ["http://localhost:3000", "http://localhost:3000"]);
    assert.deepEqual(
      [env.keyActivationDelaySeconds, env.trustProxy, env.countryHeader, env.redisUrl, env.redisKeyPrefix],
      [0, false, null, null, "qr:"],
    );
    assert.deepEqual(
      [env.personalDailyQuota, env.businessDailyQuota, env.invalidKeyBurst, env.invalidKeyPerSecond],
      [2000, 10000, 60, 1],
    );
    assert.deepEqual(
      [env.metricsToken, env.metricsEnabled, env.logLevel, env.logShortLinks, env.shutdownDrainSeconds],
      [null, true, "info", false, 5],
    );
    assert.deepEqual(
      [env.scanSpool, env.scanSpoolDir, env.scanSpoolFsyncMs, env.scanWriterTestPauseMs],
      [true, "./data/spool", 1000, 0],
    );
  });

  it("SCAN_EVENT_RETENTION_DAYS: forever by default, else whole days from 1", () => {
    const parsed = parseEnv({ SCAN_EVENT_RETENTION_DAYS: "90" });
    assert.ok("env" in parsed);
    assert.equal(parsed.env.scanEventRetentionDays, 90);
    const byDefault = parseEnv({});
    assert.ok("env" in byDefault);
    assert.equal(byDefault.env.scanEventRetentionDays, null);
    for (const bad of ["0", "1.5", "a year"])
      assert.deepEqual(problems({ SCAN_EVENT_RETENTION_DAYS: bad }), [
        "SCAN_EVENT_RETENTION_DAYS must be a whole number of days, 1 or more",
      ]);
  });

  it("WEBHOOK_ALLOWED_PORTS: 443 by default, else a list of ports", () => {
    const byDefault = parseEnv({});
    assert.ok("env" in byDefault);
    assert.deepEqual(byDefault.env.webhookAllowedPorts, [443]);
    const listed = parseEnv({ WEBHOOK_ALLOWED_PORTS: "443, 8443,8443" });
    assert.ok("env" in listed);
    assert.deepEqual(listed.env.webhookAllowedPorts, [443, 8443]);
    for (const bad of ["0", "65536", "443,", "https", "44.3", "443;8443"]) {
      assert.deepEqual(
        problems({ WEBHOOK_ALLOWED_PORTS: bad }),
        ["WEBHOOK_ALLOWED_PORTS must be a comma-separated list of ports from 1 to 65535"],
        bad,
      );
    }
  });

  it("APP_URL's default follows PORT", () => {
    const parsed = parseEnv({ PORT: "3900" });
    assert.ok("env" in parsed);
    assert.deepEqual([parsed.env.appUrl, parsed.env.shortBaseUrl], ["http://localhost:3900", "http://localhost:3900"]);
  });

  it("refuses bad operations settings", () => {
    const problems = (source: Record<string, string>) => {
      const parsed = parseEnv(source);
      return "problems" in parsed ? parsed.problems : [];
    };
    assert.deepEqual(problems({ LOG_LEVEL: "loud" }), [
      "LOG_LEVEL must be fatal, error, warn, info, debug, trace or silent",
    ]);
    assert.deepEqual(problems({ SHUTDOWN_DRAIN_SECONDS: "-1" }), [
      "SHUTDOWN_DRAIN_SECONDS must be a number of seconds, 0 or more",
    ]);
    assert.deepEqual(problems({ METRICS_TOKEN: "short" }), ["METRICS_TOKEN must be at least 16 characters"]);
    assert.deepEqual(problems({ LOG_SHORT_LINKS: "yes" }), ["LOG_SHORT_LINKS must be 1, true, 0 or false"]);
    assert.deepEqual(problems({ SCAN_SPOOL_FSYNC_MS: "-5" }), ["SCAN_SPOOL_FSYNC_MS must be at least 0"]);
    assert.deepEqual(problems({ SCAN_SPOOL_FSYNC_MS: "soon" }), ["SCAN_SPOOL_FSYNC_MS must be an integer"]);
    assert.deepEqual(problems({ SCAN_SPOOL: "maybe" }), ["SCAN_SPOOL must be 1, true, 0 or false"]);
  });

  it("derives the URLs: APP_URL, else NEXTAUTH_URL; SHORT_BASE_URL defaults to it; no trailing slash", () => {
    const a = parseEnv({ NEXTAUTH_URL: "https://qr.example/", SHORT_BASE_URL: "" });
    assert.ok("env" in a);
    assert.deepEqual([a.env.appUrl, a.env.shortBaseUrl], ["https://qr.example", "https://qr.example"]);
    const b = parseEnv({
      APP_URL: "https://app.example",
      NEXTAUTH_URL: "https://other.example",
      SHORT_BASE_URL: "https://s.example//",
    });
    assert.ok("env" in b);
    assert.deepEqual([b.env.appUrl, b.env.shortBaseUrl], ["https://app.example", "https://s.example"]);
  });

  it("reads flags, header names and PostgreSQL URLs", () => {
    const parsed = parseEnv({
      TRUST_PROXY: "true",
      TRUST_PROXY_COUNTRY_HEADER: "CF-IPCountry",
      DATABASE_URL: "postgresql://u@h:5432/d",
      REDIS_URL: "rediss://r:6380",
    });
    assert.ok("env" in parsed);
    assert.deepEqual(
      [parsed.env.trustProxy, parsed.env.countryHeader, parsed.env.backend, parsed.env.redisUrl],
      [true, "cf-ipcountry", "postgres", "rediss://r:6380"],
    );
  });

  it("a bad value is refused with its name and rule", () => {
    assert.deepEqual(problems({ RATE_LIMIT_PERSONAL_DAILY_QUOTA: "lots" }), [
      "RATE_LIMIT_PERSONAL_DAILY_QUOTA must be a positive number",
    ]);
    assert.deepEqual(problems({ API_KEY_ACTIVATION_DELAY_SECONDS: "-1" }), [
      "API_KEY_ACTIVATION_DELAY_SECONDS must be at least 0",
    ]);
    assert.deepEqual(problems({ PORT: "80.5" }), ["PORT must be an integer"]);
    assert.deepEqual(problems({ DATABASE_URL: "mysql://x" }), [
      "DATABASE_URL must start with file: (SQLite) or postgresql: (PostgreSQL)",
    ]);
    assert.deepEqual(problems({ REDIS_URL: "http://r" }), ["REDIS_URL must start with redis:// or rediss://"]);
    assert.deepEqual(problems({ TRUST_PROXY: "yes" }), ["TRUST_PROXY must be 1, true, 0 or false"]);
    assert.deepEqual(problems({ APP_URL: "qr.example" }), ["APP_URL must be an http(s) URL"]);
    assert.equal(problems({ PORT: "x", INVALID_KEY_LIMIT_BURST: "0" }).length, 2, "every problem is listed");
  });

  it("production needs an SMTP server, unless told to write the outbox (checked by the server at start, not while next build loads the configuration)", () => {
    const refusal =
      "SMTP_URL is required with NODE_ENV=production (or MAIL_OUTBOX=1 to write mails to data/outbox/ instead)";
    const mailProblem = (source: Record<string, string>) => {
      const parsed = parseEnv(source);
      assert.ok("env" in parsed, "never a problem of the configuration itself");
      return parsed.env.mailProblem;
    };
    assert.equal(mailProblem({ NODE_ENV: "production" }), refusal);
    assert.equal(mailProblem({ NODE_ENV: "production", SMTP_URL: "", MAIL_OUTBOX: "0" }), refusal);
    assert.equal(mailProblem({ NODE_ENV: "production", SMTP_URL: "smtp://mail.example:587" }), null);
    assert.equal(mailProblem({ NODE_ENV: "production", MAIL_OUTBOX: "1" }), null);
    assert.equal(mailProblem({ NODE_ENV: "development" }), null);
    assert.deepEqual(problems({ SMTP_URL: "http://mail.example" }), ["SMTP_URL must start with smtp:// or smtps://"]);
  });

  it("reads the mail and clock settings", () => {
    const parsed = parseEnv({
      SMTP_URL: "smtps://u:p@mail.example:465",
      MAIL_FROM: "QR <qr@example.com>",
      MAIL_OUTBOX_DIR: "/tmp/out",
      CLOCK_OFFSET_SECONDS: "3700",
    });
    assert.ok("env" in parsed);
    assert.deepEqual(
      [parsed.env.smtpUrl, parsed.env.mailFrom, parsed.env.mailOutboxDir, parsed.env.clockOffsetSeconds],
      ["smtps://u:p@mail.example:465", "QR <qr@example.com>", "/tmp/out", 3700],
    );
    assert.deepEqual(problems({ CLOCK_OFFSET_SECONDS: "soon" }), ["CLOCK_OFFSET_SECONDS must be a number of seconds"]);
  });
});
