// The custom-domain TLS recipe, run as documented: Debian's caddy with deploy/caddy/Caddyfile,
// only its ports and upstream rewritten and Caddy's internal issuer (`local_certs`) in place of a
// public CA, in front of the run's server. A verified domain gets a certificate on its first
// handshake (Caddy asks /tls/ask), and its short link redirects over HTTPS with the scan
// recorded; a host that is no verified domain gets no certificate at all.
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { freePort } from "../../scripts/harness";
import { setTxtRecord } from "../dns-server";
import { BASE_URL, http, personalKey, until } from "../helpers";
import { scansOf } from "../scans";

const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1";

/** The recipe with this run's ports: the upstream is the run's server, Caddy's certificates its own. */
function caddyfile(httpsPort: number, httpPort: number, storage: string): string {
  const upstream = new URL(BASE_URL).host;
  const recipe = readFileSync("deploy/caddy/Caddyfile", "utf8")
    .replaceAll("127.0.0.1:3000", upstream)
    // The service's own host block would ask a public CA: the test has only customers' domains.
    .replace(/\n# The service itself[\s\S]*$/, "\n");
  return recipe.replace(
    "{\n",
    `{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n\tstorage file_system ${storage}\n`,
  );
}

/** curl over HTTPS to `domain`, resolved to Caddy's loopback port, trusting Caddy's internal root only. */
function curl(domain: string, port: number, pathname: string, root: string) {
  const r = spawnSync(
    "curl",
    [
      "-sS",
      "--max-time",
      "15",
      "--resolve",
      `${domain}:${port}:127.0.0.1`,
      "--cacert",
      root,
      "-A",
      PHONE,
      "-o",
      "/dev/null",
      "-w",
      "%{http_code} %{redirect_url}",
      `https://${domain}:${port}${pathname}`,
    ],
    { encoding: "utf8" },
  );
  return { exit: r.status, out: r.stdout, err: r.stderr };
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

describe("custom domains behind Caddy (on-demand TLS)", () => {
  let caddy: ChildProcess;
  let dir: string;
  let httpsPort: number;
  let log = "";

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "qr-caddy-"));
    httpsPort = await freePort();
    const httpPort = await freePort();
    const file = path.join(dir, "Caddyfile");
    writeFileSync(file, caddyfile(httpsPort, httpPort, path.join(dir, "data")));
    caddy = spawn("/usr/bin/caddy", ["run", "--config", file, "--adapter", "caddyfile"], {
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    caddy.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    caddy.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    await until(
      () => caddy.exitCode === null && log.includes("serving initial configuration"),
      "caddy started",
      20_000,
    );
    assert.ok(await portOpen(httpsPort), `caddy listens on ${httpsPort}: ${log.slice(-2000)}`);
  });
  after(() => {
    caddy?.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  it("a verified domain gets a certificate, and /<code> over HTTPS redirects with the scan recorded", async () => {
    const { key } = await personalKey();
    const domain = `tls-${randomBytes(4).toString("hex")}.example.com`;
    const added = (await http("POST", "/v1/domains", { key, json: { domain } })).body as {
      domain: { verification: { name: string; value: string } };
    };
    setTxtRecord(added.domain.verification.name, [added.domain.verification.value]);
    assert.equal((await http("POST", `/v1/domains/${domain}/verify`, { key })).status, 200);
    const created = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { name: "Over TLS", destination_url: "https://example.com/tls", domain, code: "menu" },
    });
    assert.equal(created.status, 201, created.text);
    const root = path.join(dir, "data", "pki", "authorities", "local", "root.crt");

    const got = curl(domain, httpsPort, "/menu", root);
    assert.equal(got.exit, 0, `${got.err}\n${log.slice(-3000)}`);
    assert.equal(got.out, "302 https://example.com/tls");
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { domain, code: "menu" } });
    const rows = await scansOf(id, 1);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].device, "mobile");
    // The domain's other paths: 404 over TLS too.
    assert.equal(curl(domain, httpsPort, "/login", root).out, "404 ");
  });

  it("a host that is no verified domain gets no certificate", async () => {
    const root = path.join(dir, "data", "pki", "authorities", "local", "root.crt");
    const unverified = `nope-${randomBytes(4).toString("hex")}.example.com`;
    const { key } = await personalKey();
    assert.equal((await http("POST", "/v1/domains", { key, json: { domain: unverified } })).status, 201);
    for (const host of [unverified, `stranger-${randomBytes(4).toString("hex")}.example.org`]) {
      const r = curl(host, httpsPort, "/menu", root);
      assert.notEqual(r.exit, 0, `${host}: ${r.out}`);
      assert.match(r.err, /SSL|TLS|alert/i);
    }
  });
});
