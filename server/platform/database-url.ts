// DATABASE_URL alone picks the backend: `file:` is embedded SQLite, `postgres(ql):` is PostgreSQL.
import path from "node:path";
import type { PoolConfig } from "pg";

export const DEFAULT_DATABASE_URL = "file:./data/qr.db";

export type Backend = "sqlite" | "postgres";

export function backendOf(url: string): Backend {
  if (url.startsWith("file:")) return "sqlite";
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return "postgres";
  throw new Error("DATABASE_URL must start with file: (SQLite) or postgresql: (PostgreSQL)");
}

/** Absolute path of the SQLite file, relative paths taken from the working directory. */
export function sqliteFileOf(url: string): string {
  return path.resolve(url.slice("file:".length).replace(/^\/\//, ""));
}

/**
 * Host, port, user, password and database passed separately: given a connectionString,
 * Prisma's shadow-database support silently points at the real database.
 */
export function pgConfigFromUrl(url: string): PoolConfig {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username) || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: decodeURIComponent(u.pathname.slice(1)) || undefined,
    ssl: u.searchParams.get("sslmode") === "require" ? { rejectUnauthorized: false } : undefined,
  };
}
