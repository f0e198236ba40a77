// The bundle across backends (issue 43, point 3): a library of 100,000 scans made on the
// embedded SQLite database, exported, imported into PostgreSQL, exported again and imported
// into a new SQLite database. Every record is equal field by field (the three bundles are the
// same bytes but for their first line, and the /v1 records the same JSON but for the host of
// short_url), and every analytics answer is byte-equal: totals, uniques, daily in UTC and
// Asia/Kolkata, hourly, breakdowns, the summary and the scan export. A second POST creates
// nothing. While each server exports and imports, its memory does not grow with the scans.
// Each server on a database of its own, filled in a process of its own
// (scripts/bundle-library.ts).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { freshDatabase, residentMemory, startServer, type RunningServer } from "../../scripts/harness";

const SCANS = 100_000;
/**
 * SQLite's page cache per connection (better-sqlite3's default, 16 MB): it fills as the
 * export's reader, or the import's writer, first reads its pages, whatever the bundle's size.
 */
const SQLITE_CACHE = 16 * 2 ** 20;
const PG_URL = process.env.DATABASE_URL!;
/** What each server and filler needs beside its database (the run's own secrets are in the environment). */
const SERVER_ENV = { TRUST_PROXY_COUNTRY_HEADER: "cf-ipcountry", REDIS_URL: "", REDIS_KEY_PREFIX: "" };

type Database = Awaited<ReturnType<typeof freshDatabase>>;
type Instance = { server: RunningServer; key: string };

function fill(url: string, args: string[]): string {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/bundle-library.ts", ...args], {
    env: { ...process.env, ...SERVER_ENV, DATABASE_URL: url },
    encoding: "utf8",
    maxBuffer: 16 * 2 ** 20,
  });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout.trim().split("\n").pop()!) as { key: string }).key;
}

/** A request of the instance's key, paced under its rate limit (5 a second), 429s waited out. */
async function call(instance: Instance, path: string, init: RequestInit = {}): Promise<Response> {
  for (;;) {
    await new Promise((r) => setTimeout(r, 220));
    const res = await fetch(`${instance.server.base}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), "x-api-key": instance.key },
    });
    if (res.status !== 429) return res;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function exported(instance: Instance): Promise<string> {
  return (await exportedWatched(instance)).bundle;
}

/**
 * The bundle, read as it streams, with the server's resident memory sampled every 20 ms: its
 * peak until half the scans had arrived, and its peak at the end.
 */
async function exportedWatched(instance: Instance) {
  const pid = instance.server.child.pid!;
  let peak = residentMemory(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, residentMemory(pid))), 20);
  try {
    const res = await call(instance, "/v1/bundle");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/x-ndjson/);
    const decoder = new TextDecoder();
    let [bundle, lines, peakAtHalf] = ["", 0, 0];
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      bundle += decoder.decode(chunk, { stream: true });
      if (!peakAtHalf && lines >= SCANS / 2) peakAtHalf = Math.max(peak, residentMemory(pid));
    }
    bundle += decoder.decode();
    return { bundle, peakAtHalf, peak: Math.max(peak, residentMemory(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The export's memory does not grow with the bundle (contract: "Memory does not grow with its
 * size"). Its first reads have costs of their own, whatever the size (the SQLite reader's
 * connection and page cache, code compiled on first use): they come in the first half. A
 * server that kept the scans it sent as parsed lines or rows (1.6 to 2.2 times their text)
 * would grow during the second half by more than that half's bytes, half the bundle's, plus
 * SQLITE_CACHE; streaming page by page it grows by the page cache still filling, if at all.
 */
function assertFlatExport(watched: { bundle: string; peakAtHalf: number; peak: number }, what: string) {
  const secondHalf = Buffer.byteLength(watched.bundle) / 2 + SQLITE_CACHE;
  const grew = watched.peak - watched.peakAtHalf;
  assert.ok(
    grew < secondHalf,
    `${what}: the server grew by ${(grew / 2 ** 20).toFixed(1)} MB while it sent the second half of the scans (bound ${(secondHalf / 2 ** 20).toFixed(1)} MB)`,
  );
}

async function imported(instance: Instance, bundle: string) {
  const res = await call(instance, "/v1/bundle", {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: bundle,
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text) as { created: Record<string, number>; skipped: Record<string, number> };
}

/**
 * The import's memory does not grow with the bundle either. Its fixed costs come first: the
 * body spooled, the import's thread started (its module graph and database client, ~70 MB),
 * the check pass's heap. The write pass is most of its time (about 70 % here), and a server
 * that kept the rows it writes until the commit would grow all along it: during the import's
 * second half by more than half the bundle's bytes (a row holds more than its line's text)
 * plus SQLITE_CACHE. Streamed, it grows by the writer's page cache still filling, if at all.
 * (The check pass holding every line would show in the bench's million scans instead: more
 * than the thread's 128 MB heap, the import would fail.)
 */
async function importedFlat(instance: Instance, bundle: string, what: string) {
  const pid = instance.server.child.pid!;
  const start = performance.now();
  const samples: [number, number][] = [];
  const sample = () => samples.push([performance.now() - start, residentMemory(pid)]);
  const sampler = setInterval(sample, 20);
  let answer;
  try {
    answer = await imported(instance, bundle);
  } finally {
    clearInterval(sampler);
  }
  sample();
  const half = (performance.now() - start) / 2;
  const peakUntil = (until: number) => Math.max(...samples.filter(([at]) => at <= until).map(([, rss]) => rss));
  const grew = peakUntil(Infinity) - peakUntil(half);
  const bound = Buffer.byteLength(bundle) / 2 + SQLITE_CACHE;
  assert.ok(
    grew < bound,
    `${what}: the server grew by ${(grew / 2 ** 20).toFixed(1)} MB in the import's second half (bound ${(bound / 2 ** 20).toFixed(1)} MB)`,
  );
  return answer;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every answer the library's records and analytics give, by what was asked; short_url's host left out. */
async function answers(instance: Instance): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const get = async (path: string) => {
    const res = await call(instance, path);
    const text = (await res.text()).replaceAll(instance.server.base, "<host>");
    assert.equal(res.status, 200, `${path}: ${text}`);
    texts.set(path, text);
    return text;
  };
  await get("/v1/qrcodes?limit=100");
  const codes = (JSON.parse(await get("/v1/dynqrcodes?limit=100")) as { dynqrcodes: { code: string }[] }).dynqrcodes;
  const [from, to, week] = [day(Date.now() - 61 * 86_400_000), day(Date.now()), day(Date.now() - 6 * 86_400_000)];
  for (const tz of ["UTC", "Asia/Kolkata"]) {
    await get(`/v1/dynqrcodes/analytics?from=${from}&to=${to}&tz=${tz}`);
    for (const { code } of codes) {
      await get(`/v1/dynqrcodes/${code}/analytics?from=${from}&to=${to}&tz=${tz}`);
      await get(`/v1/dynqrcodes/${code}/analytics?from=${week}&to=${to}&tz=${tz}&granularity=hour`);
    }
  }
  for (const { code } of codes) await get(`/v1/dynqrcodes/${code}/analytics/export?from=${from}&to=${to}`);
  return texts;
}

/** A bundle without its first line (the time it was made). */
const body = (bundle: string) => bundle.slice(bundle.indexOf("\n") + 1);

describe("a bundle of 100,000 scans, SQLite → PostgreSQL → SQLite", () => {
  const databases: Database[] = [];
  const servers: RunningServer[] = [];
  const start = async (database: Database, key: string): Promise<Instance> => {
    const server = await startServer({ ...SERVER_ENV, DATABASE_URL: database.url });
    servers.push(server);
    return { server, key };
  };
  const stop = async (instance: Instance) => {
    await instance.server.stop();
    servers.splice(servers.indexOf(instance.server), 1);
  };

  before(async () => {
    for (const url of ["file:", PG_URL, "file:"]) databases.push(await freshDatabase("bundle", url));
  });
  after(async () => {
    for (const server of servers) await server.stop();
    for (const database of databases) await database.cleanup();
  });

  it("keeps every record field by field and every analytics answer byte for byte, both ways", async () => {
    const [sqliteSource, postgres, sqliteBack] = databases;
    const source = await start(sqliteSource, fill(sqliteSource.url, [String(SCANS)]));
    const fromSqlite = await exportedWatched(source);
    assertFlatExport(fromSqlite, "export from SQLite");
    const bundle = fromSqlite.bundle;
    const lines = bundle.trimEnd().split("\n");
    assert.equal(lines.filter((l) => l.includes('"type":"scan"')).length, SCANS);
    assert.match(lines[0], /^\{"type":"bundle","version":1,"exported_at":\d+\}$/);
    const expected = await answers(source);
    await stop(source);

    const pg = await start(postgres, fill(postgres.url, ["0", "--empty"]));
    assert.deepEqual(await importedFlat(pg, bundle, "import into PostgreSQL"), {
      created: { static: 2, dynamic: 3, scans: SCANS },
      skipped: { static: 0, dynamic: 0, scans: 0 },
    });
    const watchedPostgres = await exportedWatched(pg);
    assertFlatExport(watchedPostgres, "export from PostgreSQL");
    const fromPostgres = watchedPostgres.bundle;
    assert.equal(body(fromPostgres), body(bundle), "PostgreSQL's bundle is the source's");
    assert.deepEqual(await answers(pg), expected);
    // Posted again: already imported, nothing created twice.
    assert.deepEqual(await imported(pg, bundle), {
      created: { static: 0, dynamic: 0, scans: 0 },
      skipped: { static: 2, dynamic: 3, scans: SCANS },
    });
    assert.equal(body(await exported(pg)), body(bundle));
    await stop(pg);

    const back = await start(sqliteBack, fill(sqliteBack.url, ["0", "--empty"]));
    assert.equal((await importedFlat(back, fromPostgres, "import into SQLite")).created.scans, SCANS);
    assert.equal(body(await exported(back)), body(bundle), "the bundle made back on SQLite is the source's");
    assert.deepEqual(await answers(back), expected);
  });
});
