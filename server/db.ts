// The one Prisma client of the process. DATABASE_URL picks the backend; both generated
// clients share the same models (one base schema), so the SQLite client's type serves both.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
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
