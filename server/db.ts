// The one Prisma client of the process. DATABASE_URL picks the backend; both generated
// clients share the same models (one base schema), so the SQLite client's type serves both.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { Pool } from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { backendOf, pgConfigFromUrl, sqliteFileOf } from "./database-url";
import { env } from "./env";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";

export type Db = SqliteClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

function createClient(): Db {
  const url = env.databaseUrl;
  if (backendOf(url) === "postgres") {
    return new PostgresClient({ adapter: new PrismaPg({ ...pgConfigFromUrl(url), max: 10 }) }) as unknown as Db;
  }
  const client = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: `file:${sqliteFileOf(url)}`, timeout: 5000 }) });
  // WAL lets readers run beside the writer; it is a property of the file, set once.
  void client.$queryRawUnsafe("PRAGMA journal_mode = WAL").catch(() => undefined);
  void client.$executeRawUnsafe("PRAGMA synchronous = NORMAL").catch(() => undefined);
  return client;
}

const globalForDb = globalThis as unknown as { qrDb?: Db };
export const db: Db = (globalForDb.qrDb ??= createClient());

/**
 * The database could not be reached (down, restarting, connection cut): worth a retry, so
 * the API answers 503 with Retry-After rather than 500.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (!e || typeof e !== "object") return false;
  if (e.code === "P1001" || e.code === "P1017" || e.code === "ECONNREFUSED" || e.code === "ECONNRESET") return true;
  return /Can't reach database server|Connection terminated|ECONNREFUSED|terminating connection due to administrator command|the database system is (shutting down|starting up)|Server has closed the connection/.test(e.message ?? "");
}

const globalForReaders = globalThis as unknown as { qrSqliteReader?: Database.Database; qrPgReader?: Pool; qrStatements?: Map<string, Database.Statement> };

/** SQL of a read, for each dialect (SQLite `?` parameters, PostgreSQL `$1…`). */
export type DialectSql = { sqlite: string; postgres: string };

/**
 * Rows as arrays straight from the driver, beside Prisma, for reads too large for model
 * objects (the scan export: at a million rows Prisma's per-row objects grew the heap by
 * ~300 MB before V8 collected them). SQLite reads on a read-only connection of its own,
 * which WAL lets read while the writer writes; PostgreSQL on a small pool of its own.
 */
export async function readRows(sql: DialectSql, params: unknown[]): Promise<unknown[][]> {
  const url = env.databaseUrl;
  if (backendOf(url) === "postgres") {
    globalForReaders.qrPgReader ??= new Pool({ ...pgConfigFromUrl(url), max: 2 });
    return (await globalForReaders.qrPgReader.query({ text: sql.postgres, values: params, rowMode: "array" })).rows;
  }
  globalForReaders.qrSqliteReader ??= new Database(sqliteFileOf(url), { readonly: true, fileMustExist: true });
  const statements = (globalForReaders.qrStatements ??= new Map());
  let statement = statements.get(sql.sqlite);
  if (!statement) statements.set(sql.sqlite, (statement = globalForReaders.qrSqliteReader.prepare(sql.sqlite).raw(true)));
  return statement.all(...params) as unknown[][];
}
