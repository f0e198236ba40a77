// The production HTTP server. `GET|HEAD /q/<code>` is answered here, before Next's request
// handler, by the same domain function as app/q/[code]/route.ts: a Next route handler costs
// far more per request than a redirect from memory (docs/BENCHMARKS.md). Everything else goes
// to Next. The client address is decided here from the socket (server/client-address.ts).
//
// On SIGTERM/SIGINT: stop accepting connections, let requests in flight finish, then write
// every buffered scan, then exit, so each redirect that was answered is recorded.
//   node --import tsx server/http-server.ts [--dev] [--port N] [--host H]
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import next from "next";
import { addressFromSocket, countryHeaderOf } from "./client-address";
import { logError } from "./log";
import { drainScans } from "./scan/recorder";
import { answerShortLink } from "./scan/redirect";
import { subscribeToChanges } from "./scan/resolve";
import { redis } from "./redis";

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const dev = args.includes("--dev");
const port = Number(option("--port") ?? process.env.PORT ?? 3000);
const host = option("--host") ?? process.env.HOST ?? "0.0.0.0";
/** How long requests in flight may take to finish once a stop signal arrives. */
const GRACE_MS = 5_000;
const SHORT_LINK = /^\/q\/([^/?]+)(?:\?|$)/;

const app = next({ dev, hostname: host, port });
const handleWithNext = app.getRequestHandler();
let stopping = false;

async function serveShortLink(req: IncomingMessage, res: ServerResponse, code: string, address: string) {
  try {
    const header = (name: string) => {
      const value = req.headers[name];
      return (Array.isArray(value) ? value[0] : value) ?? null;
    };
    const answer = await answerShortLink({
      method: req.method!,
      code,
      userAgent: header("user-agent") ?? "",
      address,
      countryHeader: countryHeaderOf({ get: (name) => header(name.toLowerCase()) }),
    });
    res.writeHead(answer.status, answer.headers).end(answer.body ?? undefined);
  } catch (error) {
    // Only when the code is not cached and the database cannot be reached.
    logError("shortlink.failed", { code }, error);
    res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "1", "Cache-Control": "no-store" }).end("Try again in a moment.\n");
  }
}

const server = createServer((req, res) => {
  const address = addressFromSocket(req.socket.remoteAddress, req.headers["x-forwarded-for"]);
  // Next and our route handlers read the address from this header: make it the one that counts.
  req.headers["x-forwarded-for"] = address;
  if (stopping) res.setHeader("Connection", "close");
  const shortLink = SHORT_LINK.exec(req.url ?? "");
  if (shortLink && (req.method === "GET" || req.method === "HEAD")) void serveShortLink(req, res, shortLink[1], address);
  else void handleWithNext(req, res);
});
server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout

async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, GRACE_MS))]);
  server.closeAllConnections();
  const left = await drainScans();
  if (left > 0) logError("shutdown.scans_not_written", { left, signal });
  process.exit(signal === "SIGINT" ? 130 : 0);
}

await app.prepare();
// With REDIS_URL: connect now, not on the first request that needs it.
redis();
subscribeToChanges();
process.on("SIGTERM", (signal) => void stop(signal));
process.on("SIGINT", (signal) => void stop(signal));
server.listen(port, host, () => console.log(`> Ready on http://${host === "0.0.0.0" ? "localhost" : host}:${port}`));
