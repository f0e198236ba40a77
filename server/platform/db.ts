// The one Prisma client of the process. DATABASE_URL picks the backend; both generated
// clients share the same models (one base schema), so the SQLite client's type serves both.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { isMainThread } from "node:worker_threads";
import { PrismaPg } from "@prisma/adapter-pg";
import { sqliteFileOf } from "./database-url";
import { env } from "./env";
import { pgPool } from "./pg-pool";
import { processSingleton } from "./process-singleton";
import { searchFoldExtension } from "./searchFold";
import { PrismaClient as SqliteClient } from "../generated/sqlite/client";
import { PrismaClient as PostgresClient } from "../generated/postgres/client";

export type Db = SqliteClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** Which database DATABASE_URL names, decided once for the process. */
export const dialect: "sqlite" | "postgres" = env.backend;

/** How long a SQLite connection waits for another's write lock before it gives up. */
const LOCK_WAIT_MS = 5000;
/**
 * A worker thread's driver-level writer waits for the lock inside SQLite this long at a time:
 * between two waits it sees a stop (`stopWriting`). A thread still inside SQLite when the process
 * exits gets its error thrown into a terminating thread: a V8 fatal error, not an exit.
 */
const LOCK_SLICE_MS = 100;

type SqliteConnection = { connection: Database.Database; statements: Map<string, Database.Statement> };
/** The driver-level connections, one set per process (server/platform/process-singleton.ts). */
const connections: { reader?: SqliteConnection; writer?: SqliteConnection } = processSingleton(
  "db.connections",
  () => ({}),
);

/**
 * Prisma's SQLite adapter begins its transactions with a plain (deferred) `BEGIN`: such a
 * transaction reads from a snapshot and asks for the write lock only at its first write, and if
 * another connection (the background thread, another process) committed in between, SQLite
 * fails that write with SQLITE_BUSY at once ("Operation has timed out"). Beginning with
 * `BEGIN IMMEDIATE` takes the write lock first, so nothing can commit between a transaction's
 * reads and its writes. The wait for the lock blocks the thread (SQLite's busy handler, up to
 * LOCK_WAIT_MS): the background thread holds it for a few milliseconds per commit, and the
 * main thread's own driver writes never hold it across a turn (`writeTransaction`).
 * The adapter has no option for it; its connection is public, so its one `BEGIN` statement is
 * swapped on it. Should the lock not come within the wait, the transaction begins deferred as
 * before: the adapter holds a lock of its own from before its BEGIN, and leaves it held for good
 * if the BEGIN throws (prisma/orm#29933), which would stop every later transaction.
 */
function immediateTransactions(factory: PrismaBetterSqlite3): PrismaBetterSqlite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const connection = (adapter as unknown as { client: Database.Database }).client;
    const prepare = connection.prepare.bind(connection);
    const begin = {
      run: () => {
        try {
          return prepare("BEGIN IMMEDIATE").run();
        } catch {
          return prepare("BEGIN").run();
        }
      },
    };
    connection.prepare = ((sql: string) => (sql === "BEGIN" ? begin : prepare(sql))) as typeof connection.prepare;
    return adapter;
  };
  return factory;
}

/** The client with the lists' folded search columns kept (./searchFold.ts). */
const folding = (client: SqliteClient | PostgresClient): Db =>
  (client as SqliteClient).$extends(searchFoldExtension as never) as unknown as Db;

function createClient(): Db {
  if (dialect === "postgres")
    return folding(new PostgresClient({ adapter: new PrismaPg(pgPool(), { disposeExternalPool: true }) }));
  const adapter = immediateTransactions(
    new PrismaBetterSqlite3({ url: `file:${sqliteFileOf(env.databaseUrl)}`, timeout: LOCK_WAIT_MS }),
  );
  const client = new SqliteClient({ adapter });
  // WAL lets readers run beside the writer; it is a property of the file, set once.
  void client.$queryRawUnsafe("PRAGMA journal_mode = WAL").catch(() => undefined);
  void client.$executeRawUnsafe("PRAGMA synchronous = NORMAL").catch(() => undefined);
  return folding(client);
}

export const db: Db = processSingleton("db.prisma", createClient);

/**
 * The database could not be reached (down, restarting, connection cut): worth a retry, so
 * the API answers 503 with Retry-After rather than 500.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (!e || typeof e !== "object") return false;
  if (e.code === "P1001" || e.code === "P1017" || e.code === "ECONNREFUSED" || e.code === "ECONNRESET") return true;
  return /Can't reach database server|Connection terminated|timeout exceeded when trying to connect|ECONNREFUSED|terminating connection due to administrator command|the database system is (shutting down|starting up)|Server has closed the connection|Client has encountered a connection error/.test(
    e.message ?? "",
  );
}

/** A write refused by a unique index (Prisma's P2002): the callers turn it into a conflict or retry. */
export const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "P2002";
/** An update whose `where` matched no row (Prisma's P2025): a conditional write that lost its condition. */
export const isRecordMissing = (error: unknown) => (error as { code?: string } | null)?.code === "P2025";

/** SQL of a read, for each dialect (SQLite `?` parameters, PostgreSQL `$1…`). */
export type DialectSql = { sqlite: string; postgres: string };

const statementNames = processSingleton("db.statementNames", () => new Map<string, string>());
/** A named statement per SQL text: PostgreSQL parses and plans it once per connection. */
function pgStatement(sql: string, values: unknown[], arrays = false) {
  // Named after the text itself, so that a name always means one text on a connection.
  let name = statementNames.get(sql);
  if (!name) statementNames.set(sql, (name = `qr_${createHash("sha256").update(sql).digest("hex").slice(0, 24)}`));
  return { name, text: sql, values, ...(arrays ? { rowMode: "array" as const } : {}) };
}

function openSqlite(role: "reader" | "writer"): SqliteConnection {
  const file = sqliteFileOf(env.databaseUrl);
  if (role === "reader")
    return { connection: new Database(file, { readonly: true, fileMustExist: true }), statements: new Map() };
  // The main thread's writer never lets SQLite wait for the lock, a worker's for a slice at a time (see `beginImmediate`).
  const connection = new Database(file, { fileMustExist: true, timeout: isMainThread ? 0 : LOCK_SLICE_MS });
  // As on Prisma's connection (createClient): the embedded database's documented durability.
  connection.pragma("synchronous = NORMAL");
  return { connection, statements: new Map() };
}

function sqliteStatement(role: "reader" | "writer", sql: string): Database.Statement {
  const sqlite = (connections[role] ??= openSqlite(role));
  let statement = sqlite.statements.get(sql);
  if (!statement) sqlite.statements.set(sql, (statement = sqlite.connection.prepare(sql)));
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
async function read(sql: DialectSql, params: unknown[], arrays: boolean): Promise<unknown[]> {
  if (dialect === "postgres") return (await pgPool().query(pgStatement(sql.postgres, params, arrays))).rows;
  return sqliteStatement("reader", sql.sqlite)
    .raw(arrays)
    .all(...params);
}

/**
 * One statement of a write transaction applied to many rows: what it returns (RETURNING), if
 * any. SQLite runs its one-row statement once per row (binding a row costs SQLite half of
 * unpacking it from a JSON parameter: 6.5 against 13 µs a scan); PostgreSQL gets all the rows
 * in one round trip, as one JSON array of arrays (`$1`) that its statement unpacks as jsonb
 * (parsed once; as json, each `->>` parsed the row again: 11.4 against 5.1 ms for 500 scans).
 */
export type RunEach = (sql: DialectSql, rows: unknown[][]) => Promise<unknown[]>;

/**
 * An insert of rows given as arrays (for `RunEach`), in both dialects; `casts` names the
 * PostgreSQL type of each column that is not text. `tail` (ON CONFLICT …, RETURNING …) is
 * the same in both.
 */
export function insertEach(
  table: string,
  columns: readonly string[],
  casts: Record<string, string>,
  tail = "",
): DialectSql {
  const names = columns.map((c) => `"${c}"`).join(", ");
  const unpacked = columns.map((c, i) => (casts[c] ? `(e ->> ${i})::${casts[c]}` : `e ->> ${i}`)).join(", ");
  return {
    sqlite: `INSERT INTO "${table}" (${names}) VALUES (${columns.map(() => "?").join(", ")}) ${tail}`,
    postgres: `INSERT INTO "${table}" (${names}) SELECT ${unpacked} FROM jsonb_array_elements($1::jsonb) AS e ${tail}`,
  };
}

/**
 * A write transaction through the driver, for the scan writer: a batch of scans is three
 * statements, which Prisma's transaction machinery made cost more than their own work.
 * SQLite writes on a connection of its own (waiting up to 5 s for the file's write lock),
 * PostgreSQL on a pooled connection. `durable: false` lets PostgreSQL acknowledge the commit
 * before its WAL reaches the disk (1.5 to 2 ms a commit here): for writes that a crash of the
 * database machine may undo without harm (the webhook dispatcher's claims and outcomes: an
 * undone one means a delivery is made again, which at-least-once delivery allows).
 * On SQLite `work` must not wait for anything but its `runEach` calls (which run at once): a
 * Prisma transaction of the same thread waiting for the lock blocks the thread until it is free.
 */
export async function writeTransaction<T>(
  work: (runEach: RunEach) => Promise<T>,
  options: { durable: boolean } = { durable: true },
): Promise<T> {
  if (dialect === "postgres") {
    const client = await pgPool().connect();
    try {
      await client.query(options.durable ? "BEGIN" : "BEGIN; SET LOCAL synchronous_commit TO OFF");
      const result = await work(
        async (sql, rows) => (await client.query(pgStatement(sql.postgres, [JSON.stringify(rows)]))).rows,
      );
      await client.query("COMMIT");
      client.release();
      return result;
    } catch (error) {
      // A connection that cannot even roll back is dropped, not reused.
      await client.query("ROLLBACK").then(
        () => client.release(),
        () => client.release(true),
      );
      throw error;
    }
  }
  const runEach: RunEach = async (sql, rows) => {
    const statement = sqliteStatement("writer", sql.sqlite);
    const returned: unknown[] = [];
    for (const row of rows) {
      if (!statement.reader) statement.run(...row);
      else for (const one of statement.all(...row)) returned.push(one);
    }
    return returned;
  };
  const transaction = (verb: string) => sqliteStatement("writer", verb).run();
  // The thread has one writer connection: a second transaction begun while the first awaits its
  // work would fail ("cannot start a transaction within a transaction") or run inside it (two
  // webhook lanes finishing at once did). So they take turns.
  const turn = writerTurns.last.then(async () => {
    await beginImmediate();
    try {
      const result = await work(runEach);
      transaction("COMMIT");
      return result;
    } catch (error) {
      try {
        transaction("ROLLBACK");
      } catch {
        // nothing was begun, or SQLite rolled back already
      }
      throw error;
    }
  });
  writerTurns.last = turn.catch(() => undefined);
  return turn;
}

/** The end of the last SQLite write transaction this thread queued (`writeTransaction`), and whether this thread stopped writing. */
const writerTurns = processSingleton("db.writerTurns", () => ({
  last: Promise.resolve() as Promise<unknown>,
  stopped: false,
}));

/**
 * This thread begins no more SQLite write transactions: one that waits for the lock gives up
 * within LOCK_SLICE_MS (a worker thread calls it before it ends).
 */
export function stopWriting(): void {
  writerTurns.stopped = true;
}

/**
 * Takes SQLite's write lock for a driver-level transaction. SQLite waits for a busy lock by
 * blocking its thread; on the main thread the holder may be a Prisma transaction of this same
 * thread, which cannot go on while the event loop is blocked, so there the wait is made of
 * short sleeps between turns instead (the connection's own timeout is 0); a worker thread waits
 * inside SQLite, LOCK_SLICE_MS at a time, and looks for a stop between two waits.
 */
async function beginImmediate(): Promise<void> {
  for (const end = Date.now() + LOCK_WAIT_MS; ;) {
    if (writerTurns.stopped) throw new Error("SQLite writes stopped: the thread is ending");
    try {
      sqliteStatement("writer", "BEGIN IMMEDIATE").run();
      return;
    } catch (error) {
      if (!String((error as { code?: string }).code).startsWith("SQLITE_BUSY") || Date.now() >= end) throw error;
      await new Promise((r) => (isMainThread ? setTimeout(r, 2) : setImmediate(r)));
    }
  }
}

/**
 * A timestamp as the driver-level writers store it: the text form the Prisma SQLite adapter
 * writes and reads back, which PostgreSQL's timestamp(3) reads as the same UTC instant.
 */
export function storedTime(epochMs: number): string {
  // The scan writer stores one per scan, and toISOString formats through printf: the text up to
  // the second is made once a second.
  const second = Math.floor(epochMs / 1000);
  if (second !== lastSecond.at)
    Object.assign(lastSecond, { at: second, text: new Date(second * 1000).toISOString().slice(0, 20) });
  return `${lastSecond.text}${String(epochMs - second * 1000).padStart(3, "0")}+00:00`;
}
const lastSecond = processSingleton("storedTime.second", () => ({ at: NaN, text: "" }));

/** Rows as arrays (no per-row object: the exports). */
export const readRows = (sql: DialectSql, params: unknown[]) => read(sql, params, true) as Promise<unknown[][]>;

/** Rows as objects keyed by column name. Dates are best selected as epoch milliseconds (`epochMs`). */
export const selectRows = <T>(sql: DialectSql, params: unknown[]) => read(sql, params, false) as Promise<T[]>;

export type Dialect = typeof dialect;

/** SQL written once with `?` parameters, for both dialects (PostgreSQL numbers them `$1…`). */
export function dialectSql(build: (dialect: Dialect) => string): DialectSql {
  let n = 0;
  return { sqlite: build("sqlite"), postgres: build("postgres").replace(/\?/g, () => `$${++n}`) };
}

/** A timestamp column (stored as UTC by Prisma) as epoch milliseconds, or null. */
export const epochMs = (dialect: Dialect, column: string) =>
  dialect === "sqlite"
    ? `CAST(round((julianday(${column}) - 2440587.5) * 86400000) AS INTEGER)`
    : `round(extract(epoch from ${column}) * 1000)::float8`;
