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
 * Files that run with no other file of the same run beside them: they measure time or fill the
 * machine, and a neighbour would make them slow or wrong. Every other file runs beside others.
 */
export const ALONE: Record<string, string> = {
  "tests/api/hostile.integration.test.ts": "holds the event loop on purpose and times /q meanwhile",
  "tests/api/ratelimit.backends.test.ts": "counts what a burst lets through against a refill per second",
  "tests/api/moved-domain.integration.test.ts":
    "imports 100,000 codes in one transaction (SQLite's one writer, for seconds), then 100,000 redirects",
  "tests/instances/ratelimit.backends.test.ts": "counts what a burst lets through against a refill per second",
  "tests/instances/cluster.postgres.test.ts": "three instances and nginx under load, through an outage",
  "tests/instances/cluster-writers.postgres.test.ts": "three instances writing 500 scans a second",
  "tests/instances/starts.backends.test.ts":
    "a normal start logs nothing above info, and a database connection that a busy machine makes in over 800 ms is logged",
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
