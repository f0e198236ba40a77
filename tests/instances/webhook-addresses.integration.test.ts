// Webhook endpoints cannot reach inside (issue 37, point 4), on a database of this test's own:
// a server without WEBHOOK_ALLOW_PRIVATE_NETWORKS refuses to register private, loopback,
// link-local and special addresses, their IPv4-in-IPv6 forms, the odd spellings of IPv4 hosts
// and ports outside WEBHOOK_ALLOWED_PORTS; and its deliveries check the address they connect to.
// Endpoints that a server with the flag accepted (a name that resolves to loopback, as a name
// that resolved public when saved and to 127.0.0.1 now does; a loopback literal; http; another
// port) get no request from the server without it: each attempt fails with the reason in the
// delivery log, and a listener of the test's own on that port sees no connection. No DNS but
// the machine's own name for localhost, no traffic off the machine. And a redirect is never
// followed (checked with the flag set, where a receiver on loopback may answer).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { describe, it } from "node:test";
import { freshDatabase, startServer } from "../../scripts/harness";
import { logIn } from "../helpers";

type Delivery = { attempts: number; status: string; response_status: number | null; response_body: string | null };

/** The endpoint's only delivery once it has been attempted, from the pages' delivery log. */
async function attempted(page: Awaited<ReturnType<typeof logIn>>, id: string): Promise<Delivery> {
  let log: Delivery[] = [];
  for (const deadline = Date.now() + 30_000; !(log[0]?.attempts > 0) && Date.now() < deadline;) {
    log = (
      (await page.query("webhooks.deliveries", { scope: "personal", webhook_id: id })) as { deliveries: Delivery[] }
    ).deliveries;
    if (!(log[0]?.attempts > 0)) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(log.length, 1, id);
  return log[0];
}

describe("webhook addresses on a server without WEBHOOK_ALLOW_PRIVATE_NETWORKS", () => {
  it("refuses special addresses at registration and at every delivery's connection", async () => {
    const database = await freshDatabase("webhook_addresses");
    const sockets: Socket[] = [];
    const listener = createServer((socket) => void sockets.push(socket.on("error", () => undefined)));
    await new Promise<void>((resolve) => listener.listen(0, "::", resolve));
    const port = (listener.address() as AddressInfo).port;
    try {
      const seed = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/seed.ts"], {
        env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: "development" },
        encoding: "utf8",
      });
      assert.equal(seed.status, 0, seed.stderr);
      const env = { DATABASE_URL: database.url, REDIS_URL: "" };

      // Saved while private networks were allowed.
      const open = await startServer({ ...env, WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1", WEBHOOK_RETRY_SCALE: "1" });
      const openPage = await logIn("pro@example.com", "demo-password", open.base);
      const { key } = (await openPage("keys.generatePersonal")) as { key: string };
      const saved: Record<string, string> = {};
      for (const url of [
        `https://localhost:${port}/rebound`,
        `https://127.0.0.1:${port}/literal`,
        `http://localhost:${port}/plain`,
        `https://localhost:${port + 1}/port`,
      ]) {
        const r = await fetch(`${open.base}/v1/webhooks`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify({ url, events: ["qrcode.deleted"] }),
        });
        assert.equal(r.status, 201, url);
        saved[url] = ((await r.json()) as { webhook: { webhook_id: string } }).webhook.webhook_id;
        await new Promise((r) => setTimeout(r, 210)); // the key's bucket
      }
      // A redirect is not followed: a receiver that answers 302 to a path of its own gets one request, the attempt is not delivered.
      const paths: string[] = [];
      const redirecting = createHttpServer((req, res) => {
        paths.push(req.url ?? "");
        res.writeHead(302, { location: "/inside" }).end();
      });
      await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
      try {
        const headers = { "x-api-key": key, "content-type": "application/json" };
        const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/moved`;
        const created = await fetch(`${open.base}/v1/webhooks`, {
          method: "POST",
          headers,
          body: JSON.stringify({ url, events: ["qrcode.deleted"] }),
        });
        const id = ((await created.json()) as { webhook: { webhook_id: string } }).webhook.webhook_id;
        assert.equal((await fetch(`${open.base}/v1/webhooks/${id}/test`, { method: "POST", headers })).status, 202);
        const log = await attempted(openPage, id);
        assert.deepEqual([log.attempts, log.status, log.response_status, paths], [1, "pending", 302, ["/moved"]]);
        assert.equal((await fetch(`${open.base}/v1/webhooks/${id}`, { method: "DELETE", headers })).status, 200);
      } finally {
        redirecting.closeAllConnections();
        await new Promise((resolve) => redirecting.close(resolve));
      }
      await open.stop();

      const strict = await startServer({
        ...env,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "",
        WEBHOOK_ALLOWED_PORTS: `443,${port}`,
        WEBHOOK_RETRY_SCALE: "1",
      });
      try {
        const api = async (method: string, path: string, body?: unknown) => {
          const r = await fetch(`${strict.base}${path}`, {
            method,
            headers: { "x-api-key": key, "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          await new Promise((r) => setTimeout(r, 210));
          return { status: r.status, body: (await r.json()) as Record<string, unknown> };
        };
        for (const url of [
          "http://8.8.8.8/hook",
          "https://localhost/hook",
          "https://10.1.2.3/hook",
          "https://172.16.0.1/hook",
          "https://192.168.0.1/hook",
          "https://100.64.0.1/hook",
          "https://169.254.169.254/latest/meta-data",
          "https://0.0.0.0/hook",
          "https://192.0.0.9/hook",
          "https://198.18.0.1/hook",
          "https://240.0.0.1/hook",
          "https://[::1]/hook",
          "https://[::]/hook",
          "https://[fd00::1]/hook",
          "https://[fe80::1]/hook",
          "https://[2001:db8::1]/hook",
          "https://[ff02::1]/hook",
          "https://[::ffff:169.254.169.254]/hook",
          "https://[::127.0.0.1]/hook",
          "https://[::ffff:0:10.0.0.1]/hook",
          "https://[64:ff9b::10.0.0.1]/hook",
          "https://[2002:7f00:1::1]/hook",
          "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
          "https://0x7f.1/hook",
          "https://2130706433/hook",
          "https://0177.0.0.1/hook",
          "https://0xa9.0xfe.0xa9.0xfe/hook",
          "https://8.8.8.8:8443/hook",
          "https://8.8.8.8:80/hook",
        ]) {
          assert.deepEqual(
            await api("POST", "/v1/webhooks", { url, events: ["qrcode.deleted"] }),
            { status: 400, body: { error: "url must be a public https URL" } },
            url,
          );
        }
        const patched = await api("PATCH", `/v1/webhooks/${saved[`https://localhost:${port}/rebound`]}`, {
          url: "https://[::ffff:127.0.0.1]/",
        });
        assert.deepEqual(patched, { status: 400, body: { error: "url must be a public https URL" } });
        for (const url of [
          "https://8.8.8.8/hook",
          `https://8.8.8.8:${port}/hook`,
          "https://[2606:4700::1111]/hook",
          "https://[::ffff:8.8.8.8]/hook",
          "https://[64:ff9b::8.8.8.8]/hook",
          "https://[2002:808:808::1]/hook",
        ]) {
          const created = await api("POST", "/v1/webhooks", { url, events: ["qrcode.deleted"] });
          assert.equal(created.status, 201, url);
          assert.equal(
            (await api("DELETE", `/v1/webhooks/${(created.body.webhook as { webhook_id: string }).webhook_id}`)).status,
            200,
          );
        }
        assert.deepEqual(
          ((await api("GET", "/v1/webhooks")).body.webhooks as { url: string }[]).map((w) => w.url).sort(),
          Object.keys(saved).sort(),
        );

        // Each saved endpoint's test event, one at a time: attempted, refused before any request, the reason kept.
        const page = await logIn("pro@example.com", "demo-password", strict.base);
        const reasons: Record<string, string> = {
          [`https://localhost:${port}/rebound`]: `refused: localhost resolves to 127.0.0.1, not a public address (Loopback, 127.0.0.0/8); no request was sent`,
          [`https://127.0.0.1:${port}/literal`]:
            "refused: 127.0.0.1 is not a public address (Loopback, 127.0.0.0/8); no request was sent",
          [`http://localhost:${port}/plain`]: "refused: webhooks are sent over https only; no request was sent",
          [`https://localhost:${port + 1}/port`]: `refused: port ${port + 1} is not one of WEBHOOK_ALLOWED_PORTS (443, ${port}); no request was sent`,
        };
        for (const [url, id] of Object.entries(saved)) {
          assert.equal((await api("POST", `/v1/webhooks/${id}/test`)).status, 202);
          const log = await attempted(page, id);
          assert.deepEqual([log.attempts, log.status, log.response_status], [1, "pending", null], url);
          // localhost may also be ::1 on another machine.
          assert.equal(
            log.response_body?.replace(
              "to ::1, not a public address (Loopback Address, ::1/128)",
              "to 127.0.0.1, not a public address (Loopback, 127.0.0.0/8)",
            ),
            reasons[url],
            url,
          );
        }
        assert.equal(sockets.length, 0, "no connection reached the listener");
      } finally {
        await strict.stop();
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => listener.close(resolve));
      await database.cleanup();
    }
  });
});
