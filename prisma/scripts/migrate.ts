// Creates and applies Prisma migrations with Prisma's WebAssembly schema engine, because every
// Prisma 7 CLI migrate command first downloads a Rust engine, which cannot be had offline.
// The migrations keep Prisma's folder layout and `_prisma_migrations` checksums, so the stock
// `prisma migrate deploy` accepts them where its engine can be downloaded.
//
//   tsx prisma/scripts/migrate.ts deploy            apply pending migrations to DATABASE_URL
//   tsx prisma/scripts/migrate.ts status            list applied and pending migrations
//   tsx prisma/scripts/migrate.ts create <name>     new migration for both dialects from base.prisma
import "../../server/platform/runtime"; // first: refuses an older Node before anything loads
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import Database from "better-sqlite3";
import path from "node:path";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { migrationsDir, schemaPath, type ProviderName } from "./providers";
import { REFOLDED_BY, refoldSearch } from "./refold";
import { writeSchemas } from "./schemas";
import { backendOf, pgConfigFromUrl, sqliteFileOf } from "../../server/platform/database-url";
import { serversUsing } from "../../server/platform/embedded-backup";
import { inStartTurn } from "../../server/platform/embedded-lock";

const require = createRequire(import.meta.url);
/**
 * Tables the migrations make by hand and base.prisma cannot declare, left alone by the diff of
 * `create`: the lists' FTS5 search indexes on SQLite (search_trigrams) and their shadow tables.
 * PostgreSQL's trigram GIN indexes are left alone by its diff as they are (and it would want
 * the tables' names schema-qualified).
 */
const SEARCH_TABLES = ["StaticCode_search", "DynamicCode_search"].flatMap((t) =>
  ["", "_config", "_data", "_docsize", "_idx"].map((shadow) => `${t}${shadow}`),
);
const filtersOf = (provider: ProviderName) => ({
  externalTables: provider === "sqlite" ? SEARCH_TABLES : [],
  externalEnums: [],
});

type Engine = {
  diff(p: unknown): Promise<{ exitCode: number; stdout: string }>;
  applyMigrations(p: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diagnoseMigrationHistory(
    p: unknown,
  ): Promise<{ history: unknown; failedMigrationNames: string[]; editedMigrationNames: string[] }>;
  free(): void;
};

let wasm: Promise<typeof import("@prisma/schema-engine-wasm/schema_engine_bg")> | undefined;

/** Instantiates the engine's WebAssembly module once per process. */
function loadWasm() {
  wasm ??= (async () => {
    // The engine reports a Rust panic's message through this global before it throws.
    (globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY = {
      set_message: (message: string) => console.error(`schema engine panic: ${message}`),
    };
    const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    // The .wasm file is not exported by the package: find it beside its JS glue.
    const wasmPath = path.join(
      path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")),
      "schema_engine_bg.wasm",
    );
    const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg;
  })();
  return wasm;
}

async function loadEngine(schemaFile: string, factory: SqlMigrationAwareDriverAdapterFactory): Promise<Engine> {
  const bg = await loadWasm();
  const log = (line: string) => {
    if (process.env.MIGRATE_DEBUG) console.error(line);
  };
  return (await bg.SchemaEngine.new(
    { datamodels: [[schemaFile, readFileSync(schemaFile, "utf8")]] } as never,
    log,
    bindMigrationAwareSqlAdapterFactory(factory),
  )) as unknown as Engine;
}

/**
 * Migration scripts run whole. better-sqlite3 refuses multi-statement strings in executeRaw;
 * adapter-pg's executeScript splits a script at every ";", which cuts a function body
 * ($$ … $$) apart, so on PostgreSQL the script goes to the server as one simple query.
 */
function scriptsAware(
  factory: SqlMigrationAwareDriverAdapterFactory,
  /** Each connection to the target is kept here too: on SQLite the engine's is the only one the file admits. */
  connections: SqlDriverAdapter[] = [],
): SqlMigrationAwareDriverAdapterFactory {
  const wrap = (conn: SqlDriverAdapter): SqlDriverAdapter => {
    if (factory.provider === "postgres") {
      conn.executeScript = async (script) => {
        await (conn as unknown as { underlyingDriver(): { query(sql: string): Promise<unknown> } })
          .underlyingDriver()
          .query(script);
      };
      return conn;
    }
    const executeRaw = conn.executeRaw.bind(conn);
    conn.executeRaw = async (query) => {
      try {
        return await executeRaw(query);
      } catch (error) {
        if (!String((error as Error)?.message ?? JSON.stringify(error)).includes("more than one statement"))
          throw error;
        await conn.executeScript(query.sql);
        return 0;
      }
    };
    return conn;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const conn = wrap(await factory.connect());
      connections.push(conn);
      return conn;
    },
    connectToShadowDb: async () => wrap(await factory.connectToShadowDb()),
  };
}

function migrationsList(provider: ProviderName) {
  const baseDir = migrationsDir(provider);
  const dirs = existsSync(baseDir)
    ? readdirSync(baseDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = path.join(baseDir, "migration_lock.toml");
  return {
    baseDir,
    lockfile: { path: "migration_lock.toml", content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok", value: readFileSync(path.join(baseDir, name, "migration.sql"), "utf8") },
      },
    })),
  };
}

/** The engine and adapter for the database DATABASE_URL names. */
async function targetEngine(): Promise<{ provider: ProviderName; engine: Engine; connections: SqlDriverAdapter[] }> {
  const url = process.env.DATABASE_URL ?? "file:./data/qr.db";
  const connections: SqlDriverAdapter[] = [];
  if (backendOf(url) === "postgres") {
    return {
      provider: "postgres",
      engine: await loadEngine(schemaPath("postgres"), scriptsAware(new PrismaPg(pgConfigFromUrl(url)), connections)),
      connections,
    };
  }
  const file = sqliteFileOf(url);
  mkdirSync(path.dirname(file), { recursive: true });
  return {
    provider: "sqlite",
    engine: await loadEngine(
      schemaPath("sqlite"),
      scriptsAware(new PrismaBetterSqlite3({ url: `file:${file}` }), connections),
    ),
    connections,
  };
}

export async function deploy(): Promise<string[]> {
  const url = process.env.DATABASE_URL ?? "file:./data/qr.db";
  if (backendOf(url) === "sqlite") return deployEmbedded(sqliteFileOf(url));
  return applyAll();
}

async function applyAll(): Promise<string[]> {
  const { provider, engine, connections } = await targetEngine();
  const { appliedMigrationNames } = await engine.applyMigrations({
    migrationsList: migrationsList(provider),
    filters: filtersOf(provider),
  });
  if (appliedMigrationNames.some((name) => name.endsWith(REFOLDED_BY))) await refoldSearch(connections.at(-1)!);
  return appliedMigrationNames;
}

/**
 * SQLite: the engine takes the file for itself (`PRAGMA locking_mode=EXCLUSIVE`), which it
 * cannot have while another process has it open, and then fails with a WebAssembly trace. So a
 * second process that starts on a file in use finds, reading the migrations table itself, that
 * nothing is pending, and leaves the engine out; two that migrate at once take turns
 * (server/platform/embedded-lock.ts); one with migrations to apply to a file that servers use refuses,
 * in one line.
 */
async function deployEmbedded(file: string): Promise<string[]> {
  mkdirSync(path.dirname(file), { recursive: true });
  return inStartTurn(file, async () => {
    const names = migrationsList("sqlite").migrationDirectories.map((d) => d.path);
    const pending = pendingMigrations(file, names);
    if (pending?.length === 0) return [];
    const servers = serversUsing(file);
    if (servers.length > 0) {
      const due = pending
        ? `${pending.length} migration${pending.length === 1 ? "" : "s"} to apply`
        : "its migration history needs the engine";
      throw new Error(
        `Refusing to migrate ${file} while server processes use it (${servers.join(", ")}): ${due} (a SQLite migration needs the file to itself); stop them, then start again`,
      );
    }
    try {
      return await applyAll();
    } catch (error) {
      if (!/SocketTimeout|database is locked|SQLITE_BUSY/.test(String((error as Error)?.message ?? error))) throw error;
      throw new Error(
        `Refusing to migrate ${file}: another process has it open (a migration needs the file to itself); stop it, then start again`,
      );
    }
  });
}

/** The migrations not applied to the SQLite file, or null when the engine must look (no file or table yet, a failed migration). */
function pendingMigrations(file: string, names: string[]): string[] | null {
  if (!existsSync(file)) return null;
  const database = new Database(file, { readonly: true, timeout: 5000 });
  try {
    if (!database.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get())
      return null;
    const rows = database
      .prepare(
        `SELECT migration_name AS name, finished_at AS finished, rolled_back_at AS rolledBack FROM _prisma_migrations`,
      )
      .all() as { name: string; finished: unknown; rolledBack: unknown }[];
    if (rows.some((r) => r.finished === null && r.rolledBack === null)) return null;
    const applied = new Set(rows.filter((r) => r.finished !== null && r.rolledBack === null).map((r) => r.name));
    return names.filter((name) => !applied.has(name));
  } finally {
    database.close();
  }
}

async function status(): Promise<void> {
  const { provider, engine } = await targetEngine();
  const result = await engine.diagnoseMigrationHistory({
    migrationsList: migrationsList(provider),
    optInToShadowDatabase: false,
    filters: filtersOf(provider),
  });
  console.log(JSON.stringify(result, null, 2));
}

/** A dialect engine that needs no server: in-memory SQLite, in-memory PGlite. */
async function scratchEngine(provider: ProviderName): Promise<Engine> {
  if (provider === "sqlite") {
    return loadEngine(schemaPath("sqlite"), scriptsAware(new PrismaBetterSqlite3({ url: "file::memory:" })));
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  // The migrations replayed here create pg_trgm's indexes (search_trigrams).
  return loadEngine(
    schemaPath("postgres"),
    new PrismaPGlite(new PGlite({ extensions: { pg_trgm } })) as unknown as SqlMigrationAwareDriverAdapterFactory,
  );
}

async function create(name: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error("migration name: lowercase letters, digits and _ only");
  writeSchemas();
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  for (const provider of ["sqlite", "postgres"] as const) {
    const lock = path.join(migrationsDir(provider), "migration_lock.toml");
    if (!existsSync(lock)) {
      mkdirSync(migrationsDir(provider), { recursive: true });
      writeFileSync(
        lock,
        `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${provider === "sqlite" ? "sqlite" : "postgresql"}"\n`,
      );
    }
    const engine = await scratchEngine(provider);
    const list = migrationsList(provider);
    const { stdout } = await engine.diff({
      from: { tag: "migrations", ...list },
      to: {
        tag: "schemaDatamodel",
        files: [{ path: schemaPath(provider), content: readFileSync(schemaPath(provider), "utf8") }],
      },
      script: true,
      shadowDatabaseUrl: null,
      exitCode: null,
      filters: filtersOf(provider),
    });
    engine.free();
    if (stdout.includes("This is an empty migration")) {
      console.log(`${provider}: no change`);
      continue;
    }
    const dir = path.join(list.baseDir, `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "migration.sql"), stdout);
    console.log(`${provider}: wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  }
}

async function main(): Promise<void> {
  const [command, arg] = process.argv.slice(2);
  if (command === "deploy") {
    const applied = await deploy();
    console.log(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Database is up to date.");
  } else if (command === "status") {
    await status();
  } else if (command === "create" && arg) {
    await create(arg);
  } else {
    throw new Error("usage: migrate.ts deploy | status | create <name>");
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    () => process.exit(0), // the adapters' pools keep the event loop alive
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
