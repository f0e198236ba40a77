// A webhook receiver for the tests: an HTTP server of the test's own on loopback (the test
// server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=1, tests/run.ts).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CLAIM_MS } from "../server/webhooks/delivery-rows";

/**
 * How long a test waits for a delivery. Every instance on the run's database dispatches every
 * endpoint's deliveries, and one that a neighbouring file kills (-9) holds what it had claimed
 * until the claim expires (CLAIM_MS, 25 s): a delivery a few seconds late is no failure.
 */
export const DELIVERY_WAIT_MS = CLAIM_MS + 20_000;

/** The endpoint of a `POST /v1/webhooks` answer. */
export const created = (r: { body: unknown }) =>
  (r.body as { webhook: { webhook_id: string; secret: string } }).webhook;

type Received = { path: string; headers: IncomingHttpHeaders; body: string };

/**
 * A webhook receiver: records every request; `answers[path]` says what to answer, in turn (then
 * 204); a path in `hang` is never answered.
 */
export async function receiver() {
  const received: Received[] = [];
  const answers: Record<string, number[]> = {};
  const hang = new Set<string>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      if (hang.has(req.url ?? "")) return;
      const status = answers[req.url ?? ""]?.shift() ?? 204;
      res
        .writeHead(status, { "content-type": "text/plain" })
        .end(status >= 400 ? `failure ${status} `.repeat(200) : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  };
  return { base, received, answers, hang, close };
}
