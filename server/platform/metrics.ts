// Prometheus metrics (contract: "Operations"), with prom-client (Apache-2.0), in one registry
// per process (the Node server's and Next's copies of this module share it). Labels are route
// templates (`/v1/dynqrcodes/{code}`), outcomes, scopes and reasons: never a raw path, key,
// address, code or email. The short link's hot path pays counter increments only: its
// duration is observed for one redirect in SHORT_LINK_SAMPLE.
import client from "prom-client";
import { env } from "./env";
import { processSingleton } from "./process-singleton";

/** One /q request in this many has its duration observed. */
export const SHORT_LINK_SAMPLE = 64;

/** `password`: the form of a protected code was answered (asked, wrong, or too many tries). */
export type ShortLinkOutcome = "redirect" | "bot" | "not_found" | "gone" | "expired" | "password";

/** A hot counter's pending increments: plain numbers, handed to prom-client when it collects. */
type Pending = { labels: Record<string, string>; count: number };

function create() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const scanBuffer = { size: () => ({ memory: 0, spool: 0 }), seconds: (): number | null => 0 };
  // The hot path's counts: prom-client hashes and validates a labels object on every inc(),
  // even on a bound child (about 8 % of /q's throughput on this machine), so a request adds 1
  // to a number here and prom-client gets the sums when it is scraped.
  const pending = (outcome: ShortLinkOutcome): Pending => ({ labels: { outcome }, count: 0 });
  const outcomes: Record<ShortLinkOutcome, Pending> = {
    redirect: pending("redirect"),
    bot: pending("bot"),
    not_found: pending("not_found"),
    gone: pending("gone"),
    expired: pending("expired"),
    password: pending("password"),
  };
  /** Requests by "route method status". */
  const children = new Map<string, Pending>();
  const flush = (counter: client.Counter<string>, pending: Iterable<Pending>) => {
    for (const p of pending) {
      if (p.count === 0) continue;
      counter.inc(p.labels, p.count);
      p.count = 0;
    }
  };
  const metrics = {
    registry,
    scanBuffer,
    requests: new client.Counter({
      name: "qr_http_requests_total",
      help: "HTTP requests answered, by route template, method and status",
      labelNames: ["route", "method", "status"] as const,
      registers,
      collect() {
        flush(this, children.values());
      },
    }),
    duration: new client.Histogram({
      name: "qr_http_request_duration_seconds",
      help: `Time to answer an HTTP request, by route template and method (/q/{code}: one request in ${SHORT_LINK_SAMPLE})`,
      labelNames: ["route", "method"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    shortLinks: new client.Counter({
      name: "qr_short_link_requests_total",
      help: "Short link requests by outcome",
      labelNames: ["outcome"] as const,
      registers,
      collect() {
        flush(this, Object.values(outcomes));
      },
    }),
    scansRecorded: new client.Counter({
      name: "qr_scans_recorded_total",
      help: "Scans written to the database",
      registers,
    }),
    bufferGauge: new client.Gauge({
      name: "qr_scan_buffer_scans",
      help: "Scans answered and not yet written: in memory, and in the spool only (beyond the memory bound)",
      labelNames: ["where"] as const,
      registers,
      collect() {
        const { memory, spool } = scanBuffer.size();
        this.set({ where: "memory" }, memory);
        this.set({ where: "spool" }, spool);
      },
    }),
    backlogSeconds: new client.Gauge({
      name: "qr_scan_backlog_seconds",
      help: "About how long the unwritten scans take to write at the writer's recent rate (-1 while writes fail)",
      registers,
      collect() {
        this.set(scanBuffer.seconds() ?? -1);
      },
    }),
    spoolErrors: new client.Counter({
      name: "qr_scan_spool_errors_total",
      help: "Scans that could not be appended to the spool (kept in memory only), and failed spool syncs and checkpoints",
      registers,
    }),
    scanWrite: new client.Histogram({
      name: "qr_scan_write_duration_seconds",
      help: "Time to write one batch of scans",
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    rateLimited: new client.Counter({
      name: "qr_rate_limited_total",
      help: "Requests refused by a rate limit, by scope",
      labelNames: ["scope"] as const,
      registers,
    }),
    keyRejections: new client.Counter({
      name: "qr_api_key_rejections_total",
      help: "/v1 requests refused by the key checks, by reason",
      labelNames: ["reason"] as const,
      registers,
    }),
  };
  return { ...metrics, outcomes, children, sampled: { n: 0 } };
}

const metrics = processSingleton("metrics", create);

/** False with METRICS=0 (the benchmark's baseline): nothing is counted. */
const on = () => env.metricsEnabled;

/** A short link's outcome: one counter increment. */
export function countShortLink(outcome: ShortLinkOutcome): void {
  if (on()) metrics.outcomes[outcome].count++;
}

/** Whether this /q request's duration is observed (one in SHORT_LINK_SAMPLE). */
export function sampleShortLink(): boolean {
  return on() && ++metrics.sampled.n % SHORT_LINK_SAMPLE === 0;
}

/** One answered HTTP request; `seconds` null when its duration is not observed. */
export function countRequest(route: string, method: string, status: number, seconds: number | null): void {
  if (!on()) return;
  const name = `${route} ${method} ${status}`;
  let child = metrics.children.get(name);
  if (!child) metrics.children.set(name, (child = { labels: { route, method, status: String(status) }, count: 0 }));
  child.count++;
  if (seconds !== null) metrics.duration.observe({ route, method }, seconds);
}

export function countRateLimited(scope: "personal" | "business" | "invalid_key" | "login" | "key_generation"): void {
  if (on()) metrics.rateLimited.inc({ scope });
}

export function countKeyRejection(reason: string): void {
  if (on()) metrics.keyRejections.inc({ reason });
}

/** A batch of scans written, and how long it took. */
export function countScansWritten(count: number, seconds: number): void {
  if (!on()) return;
  metrics.scansRecorded.inc(count);
  metrics.scanWrite.observe(seconds);
}

/** Scans that could not be spooled, or a failed sync or checkpoint (counted even with METRICS=0: it is rare and it matters). */
export function countSpoolErrors(count: number): void {
  metrics.spoolErrors.inc(count);
}

/** Where the scan buffer's size is read when metrics are collected. */
export function watchScanBuffer(size: () => { memory: number; spool: number }, seconds: () => number | null): void {
  metrics.scanBuffer.size = size;
  metrics.scanBuffer.seconds = seconds;
}

/** The Prometheus text exposition. */
export async function metricsText(): Promise<{ contentType: string; text: string }> {
  return { contentType: metrics.registry.contentType, text: await metrics.registry.metrics() };
}
