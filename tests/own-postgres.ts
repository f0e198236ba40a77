// A PostgreSQL cluster of a test's own (initdb, as the postgres user: it refuses root), which
// the test may stop and start: a real outage, without touching the machine's shared server.
import { execFileSync, spawnSync } from "node:child_process";
import assert from "node:assert/strict";
import { chownSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { after, before } from "node:test";
import { freePort, startRedis, startServer, type RunningServer } from "../scripts/harness";

const BIN = path.join("/usr/lib/postgresql", readdirSync("/usr/lib/postgresql").sort().pop()!, "bin");

/** Runs a PostgreSQL program as the postgres user (it refuses to run as root). */
function asPostgres(program: string, args: string[]) {
  const command = path.join(BIN, program);
  if (userInfo().uid === 0) execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "ignore" });
  else execFileSync(command, args, { stdio: "ignore" });
}

export async function ownPostgres() {
  const dir = mkdtempSync("/tmp/qr-pg-");
  if (userInfo().uid === 0) {
    const { uid, gid } = {
      uid: Number(execFileSync("id", ["-u", "postgres"]).toString()),
      gid: Number(execFileSync("id", ["-g", "postgres"]).toString()),
    };
    chownSync(dir, uid, gid);
  }
  asPostgres("initdb", ["-D", dir, "--auth=trust", "-U", "postgres", "--no-sync"]);
  const port = await freePort();
  const start = () =>
    asPostgres("pg_ctl", [
      "-D",
      dir,
      "-w",
      "-l",
      `${dir}/log`,
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      "start",
    ]);
  const stop = () => asPostgres("pg_ctl", ["-D", dir, "-w", "-m", "fast", "stop"]);
  start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    remove: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A private cluster, migrated and seeded with the demo accounts. */
export async function seededPostgres() {
  const database = await ownPostgres();
  const env = { ...process.env, DATABASE_URL: database.url, NODE_ENV: "development" } as NodeJS.ProcessEnv;
  for (const script of ["prisma/scripts/migrate.ts", "scripts/seed.ts"]) {
    const run = spawnSync(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", script, ...(script.includes("migrate") ? ["deploy"] : [])],
      { env, stdio: "ignore" },
    );
    assert.equal(run.status, 0, script);
  }
  return database;
}

/** A seeded cluster of the test's own and a server on it (no Redis) for the enclosing `describe`: made before its tests, removed after. */
export function serverOnOwnPostgres() {
  const own = {} as { database: Awaited<ReturnType<typeof seededPostgres>>; server: RunningServer };
  before(async () => {
    own.database = await seededPostgres();
    own.server = await startServer({ DATABASE_URL: own.database.url, REDIS_URL: "" });
  });
  after(async () => {
    await own.server?.stop();
    own.database?.remove();
  });
  return own;
}

/**
 * An outage's parts for the enclosing `describe`: a seeded cluster of the test's own, a Redis of
 * its own, and the servers the test starts on them (pushed to `servers`), all stopped after.
 */
export function outageRig() {
  const rig = {
    servers: [] as RunningServer[],
  } as {
    database: Awaited<ReturnType<typeof seededPostgres>>;
    redis: Awaited<ReturnType<typeof startRedis>>;
    servers: RunningServer[];
  };
  before(async () => {
    rig.database = await seededPostgres();
    rig.redis = await startRedis();
  });
  after(async () => {
    for (const server of rig.servers) await server.stop();
    await rig.redis?.stop();
    rig.database?.remove();
  });
  return rig;
}
