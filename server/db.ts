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

const globalForReaders = globalThis as unknown as { qrPgPool?: Pool; qrSqliteReader?: Database.Database; qrStatements?: Map<string, Database.Statement> };

/** The process's PostgreSQL connections, shared by Prisma and the driver-level reads below. */
function pgPool(): Pool {
  if (!globalForReaders.qrPgPool) {
    const pool = new Pool({ ...pgConfigFromUrl(env.databaseUrl), max: 20 });
    // A connection cut while idle (a restart) is dropped by the pool; without a listener it
    // would end the process.
    pool.on("error", () => undefined);
    globalForReaders.qrPgPool = pool;
  }
  return globalForReaders.qrPgPool;
}

function createClient(): Db {
  const url = env.databaseUrl;
  if (backendOf(url) === "postgres") return new PostgresClient({ adapter: new PrismaPg(pgPool(), { disposeExternalPool: true }) }) as unknown as Db;
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

/** SQL of a read, for each dialect (SQLite `?` parameters, PostgreSQL `$1…`). */
export type DialectSql = { sqlite: string; postgres: string };

const statementNames = new Map<string, string>();
function sqliteStatement(sql: string): Database.Statement {
  globalForReaders.qrSqliteReader ??= new Database(sqliteFileOf(env.databaseUrl), { readonly: true, fileMustExist: true });
  const statements = (globalForReaders.qrStatements ??= new Map());
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = globalForReaders.qrSqliteReader.prepare(sql)));
  return statement;
}

/**
 * Reads straight from the driver, beside Prisma, for the hottest and the largest reads: the
 * gate's key lookup and the list pages run on every /v1 request, where Prisma's per-query
 * planning cost several times the query itself; and the scan export, where at a million rows
 * Prisma's per-row objects grew the heap by ~300 MB. Statements are prepared once (a named
 * statement per connection on PostgreSQL). SQLite reads on a read-only connection of its own,
 * which WAL lets read while the writer writes and which sees every committed write.
 */
const onPostgres = backendOf(env.databaseUrl) === "postgres";

async function read(sql: DialectSql, params: unknown[], arrays: boolean): Promise<unknown[]> {
  if (onPostgres) {
    let name = statementNames.get(sql.postgres);
    if (!name) statementNames.set(sql.postgres, (name = `qr_${statementNames.size}`));
    return (await pgPool().query({ name, text: sql.postgres, values: params, ...(arrays ? { rowMode: "array" } : {}) })).rows;
  }
  const statement = sqliteStatement(sql.sqlite);
  return statement.raw(arrays).all(...params);
}

/** Rows as arrays (no per-row object: the exports). */
export const readRows = (sql: DialectSql, params: unknown[]) => read(sql, params, true) as Promise<unknown[][]>;

/** Rows as objects keyed by column name. Dates are best selected as epoch milliseconds (`epochMs`). */
export const selectRows = <T>(sql: DialectSql, params: unknown[]) => read(sql, params, false) as Promise<T[]>;

export type Dialect = keyof DialectSql;

/** SQL written once with `?` parameters, for both dialects (PostgreSQL numbers them `$1…`). */
export function dialectSql(build: (dialect: Dialect) => string): DialectSql {
  let n = 0;
  return { sqlite: build("sqlite"), postgres: build("postgres").replace(/\?/g, () => `$${++n}`) };
}

/** A timestamp column (stored as UTC by Prisma) as epoch milliseconds, or null. */
export const epochMs = (dialect: Dialect, column: string) =>
  dialect === "sqlite" ? `CAST(round((julianday(${column}) - 2440587.5) * 86400000) AS INTEGER)` : `round(extract(epoch from ${column}) * 1000)::float8`;
