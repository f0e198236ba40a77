// The production HTTP server. `GET|HEAD|POST /q/<code>`, every `/v1` request and `/mcp` are answered
// here, before Next's request handler, by the same functions as app/q/[code]/route.ts and
// app/v1/[[...path]]/route.ts: a Next route handler costs far more per request
// (docs/BENCHMARKS.md), and a token bucket refilled 10 times a second needs a burst of
// requests checked within milliseconds of each other. Everything else (pages, /api) goes to
// Next, unless the instance serves only /v1 and /q (SERVE_PAGES=0: Next is not even loaded).
// The client address is decided here from the socket (server/platform/client-address.ts).
//
// /healthz, /readyz, /metrics and /tls/ask are answered first (server/http/ops.ts), outside the /v1 gate.
// A request whose Host is a verified custom domain is answered by its short links alone
// (server/http/custom-domain.ts); short links are served by server/http/short-link.ts.
// Every request is counted (server/platform/metrics.ts) under its route template and access-logged
// (server/platform/log.ts; /q only with LOG_SHORT_LINKS=1).
//
// On SIGTERM/SIGINT, in this order: /readyz answers 503 `draining` at once; the server keeps
// serving for SHUTDOWN_DRAIN_SECONDS (default 5) so a load balancer polling /readyz takes it
// out; then it stops accepting connections, closes idle keep-alive connections, lets requests
// in flight finish (up to 5 s), stops the webhook dispatcher, writes the unwritten scans while
// time is left, and exits: within SHUTDOWN_DRAIN_SECONDS + 10 s of the signal whatever the
// database does (a systemd TimeoutStopSec above that never kills it). A scan is in the spool
// (server/scan/spool) before its redirect is answered, so what was not written, like what a
// kill -9 leaves, waits there: the next start writes it, in the background.
//   node --import tsx server/http/server.ts [--dev] [--port N] [--host H]
import "../platform/runtime"; // first: refuses an older Node before anything loads
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { answerV1 } from "../api/v1";
import { serveMcp } from "./mcp";
import { ERROR_TABLE } from "../platform/errors";
import { jsonAnswer, writeAnswer } from "./answer";
import { addressFromSocket } from "../platform/client-address";
import { env } from "../platform/env";
import { accessLogOn, logError, logInfo, logRequest } from "../platform/log";
import { countRequest } from "../platform/metrics";
import { answerClientError } from "./client-error";
import { answerOps, isOpsPath, startDraining } from "./ops";
import { readdirSync } from "node:fs";
import { sqliteFileOf } from "../platform/database-url";
import { registerServer } from "../platform/embedded-backup";
import { randomUUID } from "node:crypto";
import { SECRET_NAMES, secret } from "../platform/secrets";
import { drainScans, scansBehind } from "../scan/recorder";
import { startBackgroundThread, stopBackgroundThread, stopDeliveries } from "./background-thread";
import { subscribeToChanges } from "../scan/resolve";
import { closeSpool, startSpool } from "../scan/spool";
import { startLiveCopy } from "../scan/live-copy";
import { startImagePool } from "../images/pool";
import { redis, whenReady } from "../platform/redis";
import { startRetentionSweep } from "../activity";
import { startScanRetention } from "../scan/retention";
import { shortLinkCodeOf, SHORT_LINK } from "../platform/urls";
import { customHostOf } from "../domains/hosts";
import { serveCustomHost } from "./custom-domain";
import { headerOf, isShortLinkMethod, redirectToShortLink, serveShortLink } from "./short-link";
import { keepNewFilesPrivate, tightenDataFiles } from "../platform/private-files";

// Before anything is written: what this process creates is its user's alone.
keepNewFilesPrivate();

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const dev = args.includes("--dev");
const port = Number(option("--port") ?? env.port);
const host = option("--host") ?? env.host;
/** How long requests in flight may take to finish once a stop signal arrives. */
const GRACE_MS = 5_000;
/** The pages' first path segments (app/*): a page's label is `/<segment>` or `/<segment>/*`, never its raw path. */
const PAGE_SEGMENTS = new Set(
  readdirSync(new URL("../../app", import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^[a-z][\w-]*$/.test(d.name))
    .map((d) => d.name),
);

// Not loaded at all on an instance for /v1 and /q only (SERVE_PAGES=0).
const app = env.servePages ? (await import("next")).default({ dev, hostname: host, port }) : null;
const handleWithNext = app?.getRequestHandler();
const NOT_SERVED = jsonAnswer(ERROR_TABLE.not_found.status, {
  error: "Not found: this instance serves only /v1 and /q (SERVE_PAGES=0)",
});
let stopping = false;

/** A request's end, counted and logged under its route template. */
function finished(route: string, requestId: string, method: string, status: number, started: number): void {
  const ms = performance.now() - started;
  countRequest(route, method, status, ms / 1000);
  if (accessLogOn()) logRequest({ requestId, route, method, status, ms: Math.round(ms * 10) / 10 });
}

/** The label of a request Next answers: its page's first segment, never the raw path. */
function nextRoute(url: string): string {
  const segments = url.split("?")[0].split("/");
  if (segments[1] === "") return "/";
  if (segments[1] === "_next") return "/_next/*";
  if (!PAGE_SEGMENTS.has(segments[1])) return "/{other}";
  return segments.length > 2 && segments[2] !== "" ? `/${segments[1]}/*` : `/${segments[1]}`;
}

/** /healthz, /readyz, /metrics. */
async function serveOps(req: IncomingMessage, res: ServerResponse, path: string, forwardedFor: string | undefined) {
  const started = performance.now();
  const answer = await answerOps({
    method: req.method ?? "GET",
    path,
    headers: { get: (name) => (name === "x-forwarded-for" ? (forwardedFor ?? null) : headerOf(req, name)) },
    peer: req.socket.remoteAddress ?? "",
    query: new URLSearchParams((req.url ?? "").split("?")[1] ?? ""),
  }).catch((error) => {
    logError("ops.failed", { path }, error);
    return jsonAnswer(ERROR_TABLE.internal.status, { error: "Internal error" });
  });
  await writeAnswer(res, req.method ?? "GET", answer);
  // Polls of the probes are counted, not access-logged (a balancer asks every second).
  countRequest(path, req.method ?? "GET", answer.status, (performance.now() - started) / 1000);
}

/**
 * The request body as a web stream. When the handler stops reading (a body over 1 MiB is
 * refused with 413), the rest is read and dropped, so the answer still reaches the client
 * (Readable.toWeb would destroy the socket instead).
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (cancelled) return;
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.on("end", () => !cancelled && controller.close());
      req.on("error", (error) => !cancelled && controller.error(error));
    },
    pull() {
      req.resume();
    },
    cancel() {
      cancelled = true;
      req.resume();
    },
  });
}

/** A /v1 request answered straight from Node, by the function app/v1's route handler calls. */
async function serveV1(req: IncomingMessage, res: ServerResponse) {
  const started = performance.now();
  let route = "/v1/{unknown}";
  let requestId = "";
  try {
    const body = req.method !== "GET" && req.method !== "HEAD" ? bodyOf(req) : null;
    const answer = await answerV1({
      method: req.method ?? "GET",
      // Only the path and query are read from it (hosts come from the headers): a Host that is no
      // host name must not make the URL invalid.
      url: `http://localhost${req.url}`,
      headers: {
        get: (name) => {
          const value = req.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
        },
        repeated: (name) => (req.headersDistinct[name.toLowerCase()]?.length ?? 0) > 1,
      },
      body,
    });
    route = answer.route ?? route;
    requestId = answer.headers["X-Request-Id"] ?? "";
    // A body the handler did not read to the end (refused first: 401, 413, 415) is read and
    // dropped before the answer goes (for at most 5 s), and the connection is closed after it
    // rather than reused mid-body: a socket closed with unread data is reset, and a client still
    // sending would lose the answer. A stream never read is cancelled first, or its reader
    // would pause the request again at every chunk and the drain would wait out the 5 s.
    if (body && !req.complete) {
      res.setHeader("Connection", "close");
      if (!body.locked) void body.cancel();
      req.resume();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, GRACE_MS);
        req.once("end", () => (clearTimeout(timer), resolve()));
        req.once("close", () => (clearTimeout(timer), resolve()));
      });
    }
    await writeAnswer(res, req.method ?? "GET", answer);
  } catch (error) {
    // answerV1 answers every error itself: this is a failure to write the answer.
    logError("http.failed", { path: req.url?.split("?")[0] }, error);
    if (!res.headersSent)
      await writeAnswer(res, "GET", jsonAnswer(ERROR_TABLE.internal.status, { error: "Internal error" }));
    else res.destroy();
  }
  finished(route, requestId, req.method ?? "GET", res.statusCode, started);
}

/** Everything else: Next's request handler, counted when the response is done. */
function serveWithNext(req: IncomingMessage, res: ServerResponse) {
  const started = performance.now();
  const route = nextRoute(req.url ?? "/");
  const requestId = randomUUID();
  res.once("finish", () => finished(route, requestId, req.method ?? "GET", res.statusCode, started));
  if (handleWithNext) void handleWithNext(req, res);
  else
    void writeAnswer(res, req.method ?? "GET", {
      ...NOT_SERVED,
      headers: { ...NOT_SERVED.headers, "X-Request-Id": requestId },
    });
}

/** The service's own routes. */
function route(
  req: IncomingMessage,
  res: ServerResponse,
  address: string,
  forwardedFor: string | string[] | undefined,
) {
  const shortLink = SHORT_LINK.exec(req.url ?? "");
  if (shortLink && isShortLinkMethod(req.method)) void serveShortLink(req, res, shortLink[1], address);
  else if (!shortLink && shortLinkCodeOf(req.url ?? "/") !== null) redirectToShortLink(req, res);
  else if (/^\/v1(?:[/?]|$)/i.test(req.url ?? ""))
    void serveV1(req, res); // `/V1` too: answered 404 naming the canonical path
  else if (/^\/mcp(?:\?|$)/.test(req.url ?? "")) {
    const started = performance.now();
    void serveMcp(req, res).then(() => finished("/mcp", "", req.method ?? "GET", res.statusCode, started));
  } else {
    const path = (req.url ?? "/").split("?")[0];
    if (isOpsPath(path))
      void serveOps(req, res, path, Array.isArray(forwardedFor) ? forwardedFor.join(", ") : forwardedFor);
    else serveWithNext(req, res);
  }
}

const server = createServer((req, res) => {
  const forwardedFor = req.headers["x-forwarded-for"];
  const address = addressFromSocket(req.socket.remoteAddress, forwardedFor);
  // Next and our route handlers read the address from this header: make it the one that counts.
  req.headers["x-forwarded-for"] = address;
  if (stopping) res.setHeader("Connection", "close");
  // Our own hosts and addresses cost a few string checks; any other Host may be a custom domain.
  const custom = customHostOf(req.headers.host);
  const answered = custom !== null && serveCustomHost(req, res, custom, address);
  if (answered === false) route(req, res, address, forwardedFor);
  else if (answered !== true) void answered.then((done) => done || route(req, res, address, forwardedFor));
});
server.on("clientError", answerClientError);
server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout

/**
 * The stop's bound after SHUTDOWN_DRAIN_SECONDS; the part of it kept for ending the background
 * thread (THREAD_STOP_MS), closing the spool and exiting.
 */
const STOP_MS = 10_000;
const THREAD_STOP_MS = 1000;
const EXIT_MARGIN_MS = 2000;

async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  const deadline = Date.now() + env.shutdownDrainSeconds * 1000 + STOP_MS - EXIT_MARGIN_MS;
  // Whatever hangs (a connection, the dispatcher), the process is out in time, its spool closed.
  setTimeout(() => void exit(signal), deadline - Date.now() + 100).unref();
  // Out of the balancer first: /readyz says draining while the server still serves everything.
  startDraining();
  logInfo("shutdown.draining", { signal, seconds: env.shutdownDrainSeconds });
  await new Promise((resolve) => setTimeout(resolve, env.shutdownDrainSeconds * 1000));
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, GRACE_MS))]);
  server.closeAllConnections();
  const deliveriesStopped = stopDeliveries();
  await drainScans(deadline - Date.now());
  // The delivery attempts in flight end and are recorded, within the stop's bound: one left
  // unrecorded would be made again by another instance once its claim expires.
  await Promise.race([deliveriesStopped, new Promise((resolve) => setTimeout(resolve, deadline - Date.now()))]);
  await exit(signal);
}

let exiting = false;

/**
 * The end of a stop: what was not written stays in the spool for the next start. The background
 * thread ends first: one still inside SQLite when the process exits would crash it.
 */
async function exit(signal: NodeJS.Signals): Promise<void> {
  if (exiting) return;
  exiting = true;
  await stopBackgroundThread(THREAD_STOP_MS);
  const left = scansBehind();
  if (left !== 0) logError("shutdown.scans_not_written", { left, signal, inSpool: env.scanSpool });
  closeSpool();
  logInfo("shutdown.done", { signal, scansNotWritten: left });
  process.exit(signal === "SIGINT" ? 130 : 0);
}

// A missing or weak secret, or no way to send mail in production, stops the server here, with
// the reason, not at the first log-in or sign-up.
try {
  tightenDataFiles();
  for (const name of SECRET_NAMES) secret(name);
  if (env.mailProblem) throw new Error(env.mailProblem);
  if (env.scanSpool) startSpool(); // another live process holding SCAN_SPOOL_DIR stops this one
} catch (error) {
  console.error(`Refusing to start: ${(error as Error).message}`);
  process.exit(1);
}
await app?.prepare();
startBackgroundThread();
startImagePool();
// With REDIS_URL: connect now (waiting up to 5 s), not on the first request that needs it;
// a Redis that is not there yet does not stop the server: the limits run in process meanwhile.
const shared = redis();
subscribeToChanges();
if (shared) await whenReady(shared, 5000).catch((error) => logError("redis.not_ready_at_start", {}, error));
// With PostgreSQL and Redis: the copy of every code that redirects through a database outage,
// loaded (in the background) before the sweeps make their first queries: compiling a query
// holds the event loop, and a Redis command waiting meanwhile runs out its 250 ms.
void startLiveCopy().finally(() => {
  startRetentionSweep();
  startScanRetention();
});
// An embedded database knows it is in use: `npm run admin -- restore` refuses meanwhile.
if (env.backend === "sqlite") process.once("exit", registerServer(sqliteFileOf(env.databaseUrl)));
process.on("SIGTERM", (signal) => void stop(signal));
process.on("SIGINT", (signal) => void stop(signal));
// A port that cannot be had (in use, not allowed) ends the process: an instance that does not
// listen would otherwise stay up without serving, its background thread claiming webhook deliveries.
const refuse = (error: Error) => {
  console.error(`Refusing to start: ${error.message}`);
  process.exit(1);
};
server.once("error", refuse);
server.listen(port, host, () => {
  server.off("error", refuse);
  console.log(`> Ready on http://${host === "0.0.0.0" ? "localhost" : host}:${port}`);
});
