// Backups that restore into a working service. Embedded SQLite (the SQLite run): a backup taken
// with `npm run admin -- backup` while /q traffic is being recorded restores (after the server
// is stopped: restore refuses while one runs) into a database a server starts on, with every
// record and every scan recorded before the backup began. PostgreSQL (the PostgreSQL run): a
// pg_dump of the tests' database, pg_restore'd into a new one, serves the same records.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { startServer } from "../../scripts/harness";
import { http, logIn, personalKey } from "../helpers";
import { pgConfigFromUrl } from "../../server/platform/database-url";

const DATABASE_URL = process.env.DATABASE_URL ?? "";
const onPostgres = DATABASE_URL.startsWith("postgres");
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
/** pg_dump and pg_restore of the newest installed PostgreSQL (the server's own), else from PATH. */
const pgTool = (name: string) => {
  const root = "/usr/lib/postgresql";
  const version = existsSync(root) ? readdirSync(root).sort().pop() : undefined;
  const candidate = version ? path.join(root, version, "bin", name) : "";
  return candidate && existsSync(candidate) ? candidate : name;
};
const tsx = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", ...args], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });

describe("embedded database backup and restore", { skip: onPostgres ? "the SQLite run" : false }, () => {
  it("a backup taken under /q traffic restores with every record and every scan up to it", async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), "qr-backup-"));
    const file = path.join(dir, "qr.db");
    const url = `file:${file}`;
    const backup = path.join(dir, "backup.db");
    try {
      for (const args of [["prisma/scripts/migrate.ts", "deploy"], ["scripts/seed.ts"]])
        assert.equal(tsx(args, { DATABASE_URL: url, NODE_ENV: "development" }).status, 0, args[0]);
      let server = await startServer({ DATABASE_URL: url, REDIS_URL: "" });
      const page = await logIn("pro@example.com", "demo-password", server.base);
      const { key } = (await page("keys.generatePersonal")) as { key: string };
      const headers = { "x-api-key": key, "content-type": "application/json" };
      const created = await fetch(`${server.base}/v1/dynqrcodes/batch`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          dynqrcodes: Array.from({ length: 12 }, (_, i) => ({
            destination_url: `https://example.com/b${i}`,
            name: `Backup ${i}`,
          })),
        }),
      });
      assert.equal(created.status, 201);
      const codes = ((await created.json()) as { created: { code: string }[] }).created.map((c) => c.code);

      let running = true;
      let redirects = 0;
      const scans = async () => {
        for (let i = 0; running; i++) {
          const res = await fetch(`${server.base}/q/${codes[i % codes.length]}`, {
            redirect: "manual",
            headers: { "user-agent": IPHONE },
          });
          if (res.status === 302) redirects++;
          await res.arrayBuffer();
        }
      };
      const load = [scans(), scans(), scans()];
      while (redirects < 300) await new Promise((r) => setTimeout(r, 20));
      const count = () => {
        const db = new Database(file, { readonly: true });
        try {
          return db.prepare(`SELECT count(*) FROM "ScanEvent"`).pluck().get() as number;
        } finally {
          db.close();
        }
      };
      const recordedBefore = count();
      const taken = tsx(["scripts/admin.ts", "backup", backup], { DATABASE_URL: url });
      assert.equal(taken.status, 0, taken.stderr);
      assert.equal(statSync(backup).mode & 0o777, 0o600, "a backup is its owner's alone (npm run admin's umask)");
      const recordedAfter = count();
      await new Promise((r) => setTimeout(r, 300));
      running = false;
      await Promise.all(load);

      const refused = tsx(["scripts/admin.ts", "restore", backup], { DATABASE_URL: url });
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /Refusing to restore: a server uses/);
      assert.equal(await server.stop(), 0);
      const total = count();
      assert.equal(total, redirects, "every redirect recorded in the live database");

      const restored = tsx(["scripts/admin.ts", "restore", backup], { DATABASE_URL: url });
      assert.equal(restored.status, 0, restored.stderr);
      const inBackup = count();
      t.diagnostic(
        `redirects ${redirects}; scans recorded when the backup began ${recordedBefore}, when it ended ${recordedAfter}, in the restored database ${inBackup}, in the live one at the end ${total}; ${taken.stdout.trim()}`,
      );
      assert.ok(
        inBackup >= recordedBefore && inBackup <= recordedAfter,
        "the backup holds every scan recorded before it began",
      );
      assert.ok(inBackup < total, "traffic went on after the backup");

      server = await startServer({ DATABASE_URL: url, REDIS_URL: "" });
      try {
        const list = await fetch(`${server.base}/v1/dynqrcodes?limit=50`, { headers });
        assert.equal(list.status, 200);
        const listed = ((await list.json()) as { dynqrcodes: { code: string }[] }).dynqrcodes.map((c) => c.code);
        assert.deepEqual([...listed].sort(), [...codes].sort());
        const scan = await fetch(`${server.base}/q/${codes[0]}`, {
          redirect: "manual",
          headers: { "user-agent": IPHONE },
        });
        assert.equal(scan.status, 302);
        assert.equal(scan.headers.get("location"), "https://example.com/b0");
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("PostgreSQL dump and restore", { skip: onPostgres ? false : "the PostgreSQL run" }, () => {
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
