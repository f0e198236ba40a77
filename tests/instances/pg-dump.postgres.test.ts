// Backups that restore into a working service, on PostgreSQL: a pg_dump of the tests' database,
// pg_restore'd into a new one, serves the same records. (The embedded database: backup.sqlite.test.ts.)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import pg from "pg";
import { startServer } from "../../scripts/harness";
import { http, personalKey } from "../helpers";
import { pgConfigFromUrl } from "../../server/platform/database-url";
import { UA } from "../agents";

const DATABASE_URL = process.env.DATABASE_URL ?? "";
const IPHONE = UA.iphone;
/** pg_dump and pg_restore of the newest installed PostgreSQL (the server's own), else from PATH. */
const pgTool = (name: string) => {
  const root = "/usr/lib/postgresql";
  const version = existsSync(root) ? readdirSync(root).sort().pop() : undefined;
  const candidate = version ? path.join(root, version, "bin", name) : "";
  return candidate && existsSync(candidate) ? candidate : name;
};

describe("PostgreSQL dump and restore", () => {
  it("a pg_dump restores into a new database that serves the same records", async (t) => {
    const { key } = await personalKey();
    const created = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "https://example.com/dump", name: "Dump" },
    });
    assert.equal(created.status, 201);
    const { code } = (created.body as { created: { code: string }[] }).created[0];
    const dir = mkdtempSync(path.join(tmpdir(), "qr-dump-"));
    const name = `qr_restore_${Date.now()}`;
    const admin = new pg.Client({ ...pgConfigFromUrl(DATABASE_URL), database: "postgres" });
    await admin.connect();
    try {
      const dump = spawnSync(pgTool("pg_dump"), ["-Fc", "-f", path.join(dir, "qr.dump"), DATABASE_URL], {
        encoding: "utf8",
      });
      assert.equal(dump.status, 0, dump.stderr);
      await admin.query(`CREATE DATABASE "${name}"`);
      const target = new URL(DATABASE_URL);
      target.pathname = `/${name}`;
      const restore = spawnSync(
        pgTool("pg_restore"),
        ["--no-owner", "-d", target.toString(), path.join(dir, "qr.dump")],
        { encoding: "utf8" },
      );
      assert.equal(restore.status, 0, restore.stderr);
      const server = await startServer({ DATABASE_URL: target.toString(), REDIS_URL: "" });
      try {
        assert.equal((await fetch(`${server.base}/readyz`)).status, 200);
        const list = await fetch(`${server.base}/v1/dynqrcodes?limit=5`, { headers: { "x-api-key": key } });
        assert.equal(list.status, 200);
        assert.deepEqual(
          ((await list.json()) as { dynqrcodes: { code: string }[] }).dynqrcodes.map((c) => c.code),
          [code],
        );
        const scan = await fetch(`${server.base}/q/${code}`, { redirect: "manual", headers: { "user-agent": IPHONE } });
        assert.equal(scan.headers.get("location"), "https://example.com/dump");
        t.diagnostic(`pg_dump → pg_restore into ${name}: /readyz 200, the key and its code served`);
      } finally {
        await server.stop();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
