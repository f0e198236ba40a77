// A server on another port with no APP_URL (issue 16's paper cut): short_url and the printed QR
// code point at the port it listens on, not at :3000, and next-auth gets NEXTAUTH_URL from the
// app's URL (no warning at start or at the first session call). A port already taken ends the
// start with the reason.
import assert from "node:assert/strict";
import net from "node:net";
import { describe, it } from "node:test";
import { freePort, startServer } from "../../scripts/harness";
import { personalKey } from "../helpers";
import { decodePng } from "../qr-decode";

describe("APP_URL follows PORT", () => {
  it("short_url and the decoded QR image name the server's own port", async (t) => {
    const port = await freePort();
    const server = await startServer(
      { APP_URL: undefined, NEXTAUTH_URL: "", SHORT_BASE_URL: undefined, LOG_LEVEL: "info" },
      port,
    );
    try {
      const { key } = await personalKey();
      const headers = { "x-api-key": key, "content-type": "application/json" };
      const created = await fetch(`${server.base}/v1/dynqrcodes`, {
        method: "POST",
        headers,
        body: JSON.stringify({ destination_url: "https://example.com/port", name: "Port" }),
      });
      assert.equal(created.status, 201);
      const { code, short_url } = ((await created.json()) as { created: { code: string; short_url: string }[] })
        .created[0];
      assert.equal(short_url, `http://localhost:${port}/q/${code}`);
      const png = await fetch(`${server.base}/v1/dynqrcodes/${code}/image?format=png`, {
        headers: { "x-api-key": key },
      });
      assert.equal(png.status, 200);
      const decoded = decodePng(Buffer.from(await png.arrayBuffer()));
      assert.equal(decoded, short_url);
      // What a phone does with it (localhost is this machine).
      const scanned = await fetch(decoded!.replace("localhost", "127.0.0.1"), {
        redirect: "manual",
        headers: { "user-agent": "Mozilla/5.0 (iPhone) Safari/604.1" },
      });
      assert.equal(scanned.status, 302);
      assert.equal(scanned.headers.get("location"), "https://example.com/port");
      assert.equal((await fetch(`${server.base}/api/auth/session`)).status, 200);
      t.diagnostic(`short_url ${short_url}, decoded ${decoded}`);
      assert.ok(!/NEXTAUTH_URL/.test(server.output()), "next-auth warned about NEXTAUTH_URL");
    } finally {
      await server.stop();
    }
  });
});

describe("a port already in use", () => {
  it("ends the start at once with the reason, instead of a server that never listens", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      await assert.rejects(startServer({}, port), (error: Error) => {
        assert.match(error.message, /exited with 1: Refusing to start: listen EADDRINUSE/);
        return true;
      });
    } finally {
      taken.close();
    }
  });
});
