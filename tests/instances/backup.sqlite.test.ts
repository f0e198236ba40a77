// Backups that restore into a working service, on the embedded SQLite database: a backup taken
// with `npm run admin -- backup` while /q traffic is being recorded restores (after the server
// is stopped: restore refuses while one runs) into a database a server starts on, with every
// record and every scan recorded before the backup began. (PostgreSQL: pg-dump.postgres.test.ts.)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { startServer } from "../../scripts/harness";
import { logIn } from "../helpers";
import { UA } from "../agents";

const IPHONE = UA.iphone;
const tsx = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", ...args], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });

describe("embedded database backup and restore", () => {
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
