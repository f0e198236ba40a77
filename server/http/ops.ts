// /healthz, /readyz, /metrics (contract: "Operations") and /tls/ask (a proxy's on-demand
// certificates for custom domains, contract Part 3): answered by the Node server before
// Next and outside the /v1 gate and its rate limits (server/http/server.ts), and by
// app/healthz, app/readyz and app/metrics under `next dev`.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { timingSafeEqual } from "node:crypto";
import { dialect, selectRows } from "../platform/db";
import { env } from "../platform/env";
import { metricsText } from "../platform/metrics";
import { processSingleton } from "../platform/process-singleton";
import { redis } from "../platform/redis";
import { spoolCheck } from "../scan/spool";
import { copyLoaded } from "../scan/live-copy";
import { scansBehind, secondsBehind } from "../scan/recorder";
import { jsonAnswer, type Answer } from "./answer";
import { customHostOf, isVerifiedHost } from "../domains/hosts";
import { MAX_DOMAIN_LENGTH } from "../domains/names";

const PATHS = ["/healthz", "/readyz", "/metrics", "/tls/ask"];
export const isOpsPath = (path: string) => PATHS.includes(path);

/** What the three endpoints need of a request. */
export type OpsRequest = {
  method: string;
  path: string;
  headers: { get(name: string): string | null };
  /** The TCP peer's address (null under `next dev`, where the last X-Forwarded-For entry stands in). */
  peer: string | null;
  /** The query string's parameters (/tls/ask's `domain`). */
  query?: URLSearchParams;
};

const state = processSingleton("ops.state", () => ({ draining: false, migrationsApplied: false }));

/** From SIGTERM on, /readyz answers 503 `draining` (server/http/server.ts). */
export function startDraining(): void {
  state.draining = true;
}
export const isDraining = () => state.draining;

/** Each check's own limit: the checks run at once, so /readyz answers within a second in every state. */
const CHECK_TIMEOUT_MS = 600;
const NO_STORE = { "Cache-Control": "no-store" };

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+|localhost)$/;
export const isLoopback = (address: string) => LOOPBACK.test(address.trim());

/**
 * A loopback client: the TCP peer and every X-Forwarded-For entry are loopback. Behind a proxy
 * on the same machine (TRUST_PROXY=1) the peer is always loopback, and a client's forged
 * `X-Forwarded-For: 127.0.0.1` arrives with the proxy's own entry for the client after it.
 */
export function isLoopbackClient(peer: string | null, forwardedFor: string | null): boolean {
  const entries = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (peer === null) return entries.length > 0 && isLoopback(entries[entries.length - 1]);
  return isLoopback(peer) && entries.every(isLoopback);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    work,
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** The migrations this build ships with, by folder name. */
const shippedMigrations = processSingleton("ops.migrations", () => {
  const dir = path.join(process.cwd(), "prisma", dialect === "postgres" ? "postgres" : "sqlite", "migrations");
  return existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
});

/** True when every shipped migration is applied; once true it stays true (none is ever undone). */
async function migrationsApplied(): Promise<boolean> {
  if (state.migrationsApplied) return true;
  const sql = `SELECT "migration_name" AS name FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`;
  const rows = await selectRows<{ name: string }>({ sqlite: sql, postgres: sql }, []);
  const applied = new Set(rows.map((r) => r.name));
  state.migrationsApplied = shippedMigrations.every((name) => applied.has(name));
  return state.migrationsApplied;
}

type Checks = Record<string, string>;

async function readiness(): Promise<{ ready: boolean; degraded: boolean; checks: Checks }> {
  const checks: Checks = {};
  let ready = true;
  let degraded = false;
  const [database, migrations] = await Promise.allSettled([
    withTimeout(selectRows({ sqlite: "SELECT 1 AS ok", postgres: "SELECT 1 AS ok" }, []), CHECK_TIMEOUT_MS),
    withTimeout(migrationsApplied(), CHECK_TIMEOUT_MS),
  ]);
  // (A migrations read that gets no answer is the database not answering, as before.)
  if (database.status === "fulfilled" && migrations.status === "fulfilled") {
    checks.database = "ok";
    if (!migrations.value) {
      checks.migrations = "pending";
      ready = false;
    }
  } else {
    checks.database = "unreachable";
    // With the copy of every code loaded (server/scan/live-copy) every short link still
    // redirects: degraded, so that a balancer does not take every instance out at once.
    if (copyLoaded()) degraded = true;
    else ready = false;
  }
  // Redis away keeps the instance ready: limits and invalidation fall back.
  const client = redis();
  checks.redis = !client ? "not configured" : client.status === "ready" ? "ok" : "unreachable";
  // A spool that cannot be written keeps the instance ready: its scans wait in memory.
  const spool = spoolCheck();
  if (spool) checks.spool = spool;
  if (state.draining) {
    checks.shutdown = "draining";
    ready = false;
  }
  return { ready, degraded, checks };
}

function tokenMatches(header: string | null, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "");
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

const notFound = (): Answer => jsonAnswer(404, { error: "Not found" }, NO_STORE);

/** 200 when `domain` is a verified custom domain (its certificate may be issued), else 404. */
async function answerTlsAsk(domain: string): Promise<Answer> {
  const host = domain.length <= MAX_DOMAIN_LENGTH ? customHostOf(domain) : null;
  if (host === null || host !== domain.toLowerCase() || !(await isVerifiedHost(host))) return notFound();
  return jsonAnswer(200, { domain: host, verified: true }, NO_STORE);
}

/** The answer of one of OPS_PATHS. */
export async function answerOps(req: OpsRequest): Promise<Answer> {
  if (req.method !== "GET" && req.method !== "HEAD")
    return jsonAnswer(405, { error: "Method not allowed" }, { ...NO_STORE, Allow: "GET, HEAD" });
  if (req.path === "/healthz") return jsonAnswer(200, { status: "ok" }, NO_STORE);
  if (req.path === "/readyz") {
    const { ready, degraded, checks } = await readiness();
    // The scans answered and not yet written, and about how long writing them takes (null while
    // the writes fail): a backlog keeps the instance ready (its redirects are fine; taking it
    // out would only move its load onto the others).
    const behind = { scans: scansBehind(), seconds: secondsBehind() };
    return jsonAnswer(
      ready ? 200 : 503,
      { status: !ready ? "not ready" : degraded ? "degraded" : "ready", checks, scans_behind: behind },
      NO_STORE,
    );
  }
  if (req.path === "/tls/ask") {
    // A proxy on the same machine asks (Caddy's `ask` sends no credentials), or one holding METRICS_TOKEN.
    const loopback = isLoopbackClient(req.peer, req.headers.get("x-forwarded-for"));
    const token = env.metricsToken !== null && tokenMatches(req.headers.get("authorization"), env.metricsToken);
    return loopback || token ? answerTlsAsk(req.query?.get("domain") ?? "") : notFound();
  }
  if (req.path !== "/metrics") return notFound();
  if (env.metricsToken !== null) {
    if (!tokenMatches(req.headers.get("authorization"), env.metricsToken))
      return jsonAnswer(401, { error: "Unauthorized" }, { ...NO_STORE, "WWW-Authenticate": "Bearer" });
  } else if (!isLoopbackClient(req.peer, req.headers.get("x-forwarded-for"))) return notFound();
  const { contentType, text } = await metricsText();
  return { status: 200, headers: { ...NO_STORE, "Content-Type": contentType }, body: text };
}
