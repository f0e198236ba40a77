// The process's PostgreSQL pool (server/platform/db.ts hands it to Prisma and reads and writes
// through it), with a watchdog that cuts connections to a database that stopped answering.
import { isMainThread, workerData } from "node:worker_threads";
import { Client, Pool, type PoolClient } from "pg";
import { pgConfigFromUrl } from "./database-url";
import { env } from "./env";
import { processSingleton } from "./process-singleton";

/** pg's socket under a client (no public way to cut a connection that waits on a stalled host). */
type ClientWithStream = { connection: { stream: { destroy(error?: Error): void } } };

/** One pool per process (server/platform/process-singleton.ts). */
const connections: { pgPool?: Pool } = processSingleton("db.pgPool", () => ({}));

/**
 * A thread whose transactions may hold a connection for minutes (the bundle's import, in a thread
 * of its own, says so in its workerData): its pool is not watched for stalls, whose probe, on a
 * machine the import keeps busy, can miss its 400 ms and cut the import's connection.
 */
const holdsLongTransactions = () => (workerData as { longTransactions?: boolean } | null)?.longTransactions === true;

/**
 * A new connection not made within this long fails: a PostgreSQL that is stopped refuses at
 * once, but one that accepts and never answers (a stalled host, a full backlog) would hold a
 * request for good, and /v1 must answer 503 within 2 s (issue 38).
 */
const CONNECT_TIMEOUT_MS = 800;
/**
 * A connection held this long has the database probed; if the probe gets no answer either, the
 * held connections are cut, and for DOWN_MS after it any connection held SUSPECT_MS (no new probe).
 */
const STALLED_MS = 400;
const PROBE_MS = 400;
const SUSPECT_MS = 200;
const DOWN_MS = 2000;
const WATCH_MS = 100;

/** The process's PostgreSQL connections, shared by Prisma and the driver-level reads and writes (./db.ts). */
export function pgPool(): Pool {
  if (!connections.pgPool) {
    // The background thread has a pool of its own: the scan writer's one batch at a time beside
    // the dispatcher's lanes (2 each, as when each had a thread, so that lanes never keep a batch
    // waiting past the connection timeout).
    const pool = new Pool({
      ...pgConfigFromUrl(env.databaseUrl),
      max: isMainThread ? 20 : 4,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // Idle connections keep no process alive (a server is kept by its listener): a command or
      // a test file exits when its work is done, not 10 s later when the pool lets them go.
      allowExitOnIdle: true,
    });
    // A connection cut while idle (a restart) is dropped by the pool; without a listener it
    // would end the process.
    pool.on("error", () => undefined);
    if (!holdsLongTransactions()) watchStalls(pool);
    connections.pgPool = pool;
  }
  return connections.pgPool;
}

/**
 * Connections that wait for a database that stopped answering (no error, no close: the host
 * stalls) are cut, so that their queries fail as "database unreachable" (503, a retried scan
 * batch) within about two seconds, instead of waiting for TCP to give up. A slow query is
 * left alone: the cut needs a fresh connection's `SELECT 1` to get no answer within PROBE_MS too.
 */
function watchStalls(pool: Pool): void {
  const held = new Map<PoolClient, number>();
  pool.on("acquire", (client) => held.set(client, Date.now()));
  pool.on("release", (_error, client) => held.delete(client));
  pool.on("remove", (client) => held.delete(client));
  let probing = false;
  let downUntil = 0;
  const heldLongerThan = (ms: number) =>
    [...held].filter(([, since]) => Date.now() - since > ms).map(([client]) => client);
  const cut = (clients: PoolClient[]) => {
    for (const client of clients)
      (client as unknown as ClientWithStream).connection.stream.destroy(
        new Error("Connection terminated: the database did not answer"),
      );
  };
  setInterval(() => {
    if (Date.now() < downUntil) return cut(heldLongerThan(SUSPECT_MS));
    const stalled = heldLongerThan(STALLED_MS);
    if (stalled.length === 0 || probing) return;
    probing = true;
    void databaseAnswers().then((ok) => {
      probing = false;
      if (ok) return;
      downUntil = Date.now() + DOWN_MS;
      cut(heldLongerThan(SUSPECT_MS));
    });
  }, WATCH_MS).unref();
}

/** How often the probe looks at the clock; a look that comes later than twice this counts as twice this. */
const PROBE_TICK_MS = 50;

/**
 * Whether the database at `url` answers a fresh connection's `SELECT 1` within PROBE_MS of this
 * process's own time. Time its event loop was held (a long turn, a saturated machine) is not
 * counted against the database: its answer waited in the socket meanwhile, and a timer that
 * fires first would have cut a healthy connection (found on a loaded CI machine).
 */
export async function databaseAnswers(url = env.databaseUrl): Promise<boolean> {
  const client = new Client(pgConfigFromUrl(url));
  client.on("error", () => undefined);
  let answered: boolean | null = null;
  client
    .connect()
    .then(() => client.query("SELECT 1"))
    .then(
      () => (answered = true),
      () => (answered = false),
    );
  let waited = 0;
  let last = Date.now();
  while (answered === null && waited < PROBE_MS) {
    await new Promise((resolve) => setTimeout(resolve, PROBE_TICK_MS));
    const now = Date.now();
    waited += Math.min(now - last, 2 * PROBE_TICK_MS);
    last = now;
  }
  if (answered === true) void client.end().catch(() => undefined);
  // No answer: nothing more is sent on this connection (a goodbye would wait on the stalled host too).
  else (client as unknown as ClientWithStream).connection.stream.destroy();
  return answered === true;
}
