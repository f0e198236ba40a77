// Which test files a run takes. The tier is in the file's name, so that a runner (or a reader)
// picks a tier by glob, and a file named for no tier is refused rather than never run:
//   *.unit.test.ts         pure logic, no server, no build (tests/unit): once, in seconds
//   *.integration.test.ts  over HTTP, and its answers do not depend on the database: once,
//                          in the run on the embedded SQLite database
//   *.backends.test.ts     what the database decides (transactions, partitions, rollups, the
//                          scan writers, migrations, restarts on a spool): in the run on each
//   *.postgres.test.ts     PostgreSQL + Redis only (the cluster, outages, server restarts)
//   *.sqlite.test.ts       the embedded database only (processes sharing one file)
// tests/api holds files that use the run's server; tests/instances, files that start their own.
import { readdirSync } from "node:fs";
import path from "node:path";

const UNIT_TIER = ".unit.test.ts";
const TIERS = {
  integration: ".integration.test.ts",
  backends: ".backends.test.ts",
  postgres: ".postgres.test.ts",
  sqlite: ".sqlite.test.ts",
} as const;
type Tier = keyof typeof TIERS;

/**
 * Files that run with no other file of the same run beside them (but those of their company,
 * COMPANY): they measure time or fill the machine, and a neighbour would make them slow or wrong.
 * Every other file runs beside others.
 */
export const ALONE: Record<string, string> = {
  "tests/api/hostile.integration.test.ts": "holds the event loop on purpose and times /q meanwhile",
  "tests/api/transactions.backends.test.ts":
    "holds the write lock past the 5 s lock wait on purpose (against the run's server): on SQLite a neighbour's write in that time fails (a team test's did once)",
  "tests/api/ratelimit.backends.test.ts": "counts what a burst lets through against a refill per second",
  "tests/instances/ratelimit.backends.test.ts": "counts what a burst lets through against a refill per second",
  "tests/instances/cluster.postgres.test.ts": "three instances and nginx under load, through an outage",
  "tests/instances/cluster-writers.postgres.test.ts": "three instances writing 500 scans a second",
  "tests/instances/bundle.postgres.test.ts":
    "measures a server's memory while it streams: beside other files the reader is slow, the pages sent outlive the young generation, and the server grew by more than its bound once (30.2 MB against 25.3)",
  "tests/instances/starts.backends.test.ts":
    "a normal start logs nothing above info, and a database connection that a busy machine makes in over 800 ms is logged",
};

/**
 * Files of the ALONE table that may run beside each other (the same company): each mostly waits
 * (on its load's fixed rate, on an outage's seconds), and together they passed where each passed
 * alone. Saves the shorter one's time, about 40 s.
 */
export const COMPANY: Record<string, string> = {
  "tests/instances/cluster.postgres.test.ts": "cluster",
  "tests/instances/cluster-writers.postgres.test.ts": "cluster",
};

/**
 * Files that start servers of their own and get a database of their own too (fresh, migrated):
 * on SQLite, the run's one writer would otherwise make their requests wait on the other files'
 * writes. Every other file shares the run's database.
 */
export const OWN_DATABASE: Record<string, string> = {
  "tests/instances/backlog.backends.test.ts":
    "holds the scan tables' write lock for seconds on purpose: on the run's SQLite database a neighbour's write would wait past the 5 s lock wait and fail",
  "tests/instances/moved-domain.integration.test.ts":
    "imports 100,000 codes in one transaction: on the run's SQLite database the other files' writes would wait on it for seconds (it ran alone there)",
  "tests/instances/fuzz.integration.test.ts":
    "300 requests, each between two reads of the library: beside other files on the run's SQLite database 187 s, on its own 17 s",
  "tests/instances/shutdown-deliveries.integration.test.ts":
    "stops a server holding a delivery attempt: on the run's database another instance could hold it instead",
  "tests/instances/webhook-dispatchers.backends.test.ts":
    "counts each event's deliveries exactly: on the run's database a neighbour's instance stopped mid-attempt makes a second one (at least once)",
  "tests/instances/webhook-outbox.backends.test.ts":
    "the outbox's clean-up removes every library's old deliveries: on the run's database it took the other files' delivery logs",
};

/**
 * The slowest files, with the seconds each took beside others on a two-core machine (a run's
 * last lines list them). They start first, longest first, and each in a process of its own:
 * started late, one of them kept the run waiting on it alone for up to a minute.
 */
export const SLOW: Record<string, number> = {
  "tests/instances/outage.postgres.test.ts": 57,
  "tests/api/import-from.integration.test.ts": 39,
  "tests/api/qr-design.integration.test.ts": 38,
  "tests/api/authorization.integration.test.ts": 36,
  "tests/instances/spool.backends.test.ts": 36,
  "tests/api/cli.integration.test.ts": 36,
  "tests/instances/background-thread.backends.test.ts": 35,
  "tests/instances/moved-domain.integration.test.ts": 35,
  "tests/instances/webhook-instances.backends.test.ts": 30,
  "tests/instances/images-zip.integration.test.ts": 31,
  "tests/instances/backlog.backends.test.ts": 28,
  "tests/api/urls.integration.test.ts": 27,
  "tests/instances/webhook-addresses.integration.test.ts": 27,
  "tests/instances/security.integration.test.ts": 27,
  "tests/instances/accounts-abuse.integration.test.ts": 24,
  "tests/instances/fuzz.integration.test.ts": 23,
  "tests/instances/faults.backends.test.ts": 19,
  "tests/instances/accounts.integration.test.ts": 19,
  "tests/instances/scan-retention.backends.test.ts": 18,
};

/** The files of `dirs` whose names say a tier; throws on a test file that says none. */
function tiered(dirs: string[]): { file: string; tier: Tier | "unit" }[] {
  const files: { file: string; tier: Tier | "unit" }[] = [];
  const untiered: string[] = [];
  for (const dir of dirs)
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith(".test.ts")) continue;
      const file = path.join(dir, name);
      if (dir === "tests/unit") {
        if (name.endsWith(UNIT_TIER)) files.push({ file, tier: "unit" });
        else untiered.push(file);
        continue;
      }
      const tier = (Object.keys(TIERS) as Tier[]).find((t) => name.endsWith(TIERS[t]));
      if (tier) files.push({ file, tier });
      else untiered.push(file);
    }
  if (untiered.length > 0)
    throw new Error(
      `${untiered.join(", ")}: a test file's name says its tier (tests/unit: *${UNIT_TIER}; ` +
        `tests/api, tests/instances: *${Object.values(TIERS).join(", *")})`,
    );
  return files;
}

export const unitFiles = () => tiered(["tests/unit"]).map((f) => f.file);

/**
 * The integration files a run on `backend` takes. On SQLite: every tier it can run. On
 * PostgreSQL: the tiers whose answers depend on the backend; `everything` (asked for, or a
 * run narrowed with --only) adds the backend-neutral tier.
 */
export function integrationFiles(backend: "sqlite" | "postgres", everything: boolean): string[] {
  const wanted: Record<Tier, boolean> = {
    integration: backend === "sqlite" || everything,
    backends: true,
    postgres: backend === "postgres",
    sqlite: backend === "sqlite",
  };
  // tests/instances first: starting servers of their own, they take longest, and a long file
  // started last would keep the run waiting on it alone.
  return tiered(["tests/instances", "tests/api"])
    .filter((f) => f.tier !== "unit" && wanted[f.tier])
    .map((f) => f.file);
}
