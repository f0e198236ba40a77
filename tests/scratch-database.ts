// A scratch database of the run's backend, for the migrations' tests: they apply the migrations
// before the one they test, fill it as the old schema stored things, then apply that one.
import { readdirSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { pgConfigFromUrl } from "../server/platform/database-url";

export const DATABASE_URL = process.env.DATABASE_URL ?? "";
export const dialect = DATABASE_URL.startsWith("postgres") ? "postgres" : "sqlite";
const folder = path.join("prisma", dialect, "migrations");
export const migrations = readdirSync(folder)
  .filter((m) => /^\d+_/.test(m))
  .sort();
/** The index of the migration named `name` (its folder ends with `_name`). */
export const migrationIndex = (name: string) => migrations.findIndex((m) => m.endsWith(`_${name}`));
export const script = (name: string) => readFileSync(path.join(folder, name, "migration.sql"), "utf8");

/** A database to run SQL scripts and queries on, of the run's backend, dropped at the end. */
export async function scratchDatabase() {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(path.join(tmpdir(), "qr-migration-"));
    const file = path.join(dir, "old.db");
    const db = new Database(file);
    return {
      /** A connection through Prisma's driver adapter, as the migrations' runner has. */
      adapter: () => new PrismaBetterSqlite3({ url: `file:${file}` }).connect(),
      exec: async (sql: string) => void db.exec(sql),
      insert: async (table: string, rows: unknown[][]) => {
        // The old rows need no users or codes: foreign keys are not what is tested (migrations turn them back on).
        db.pragma("foreign_keys = OFF");
        const put = db.prepare(`INSERT INTO "${table}" VALUES (${rows[0].map(() => "?").join(", ")})`);
        db.transaction(() => rows.forEach((r) => put.run(...r.map((v) => (typeof v === "boolean" ? Number(v) : v)))))();
      },
      rows: async <T>(sql: string) => db.prepare(sql).all() as T[],
      close: async () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `qr_migration_${process.pid}_${Date.now()}`;
  const admin = new pg.Client(pgConfigFromUrl(DATABASE_URL));
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const client = new pg.Client({ ...pgConfigFromUrl(DATABASE_URL), database: name });
  await client.connect();
  // The old rows need no users or codes: foreign keys are not what is tested.
  await client.query("SET session_replication_role = replica");
  const adapters: { dispose(): Promise<void> }[] = [];
  return {
    adapter: async () => {
      const adapter = await new PrismaPg({ ...pgConfigFromUrl(DATABASE_URL), database: name }).connect();
      adapters.push(adapter);
      return adapter;
    },
    exec: async (sql: string) => void (await client.query(sql)),
    insert: async (table: string, rows: unknown[][]) => {
      const width = rows[0].length;
      await client.query(
        `INSERT INTO "${table}" VALUES ${rows.map((_, i) => `(${Array.from({ length: width }, (__, j) => `$${i * width + j + 1}`).join(", ")})`).join(", ")}`,
        rows.flat(),
      );
    },
    rows: async <T>(sql: string) => (await client.query(sql)).rows as T[],
    close: async () => {
      for (const adapter of adapters) await adapter.dispose();
      await client.end();
      await admin.query(`DROP DATABASE "${name}"`);
      await admin.end();
    },
  };
}
