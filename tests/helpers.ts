// Test helpers: plain HTTP to the running server, and fixtures made through the domain
// functions on the same database (the pages would do the same through their forms).
import { randomUUID } from "node:crypto";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { after, before } from "node:test";
import { Agent as UndiciAgent, Pool, setGlobalDispatcher } from "undici";
import { startPair } from "../scripts/harness";
import { checkAgainstDocument } from "./document-check";
import { generateKey, revokeKey } from "../server/keys/apiKeys";
import { keyRule } from "../server/rate-limit";
import { closeRedis } from "../server/platform/redis";
import { addMember, createTeam, generateBusinessKey, type Role } from "../server/teams/teams";
import { createUser, type Tier } from "../server/accounts/users";

export const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";

export type Reply = { status: number; headers: Headers; text: string; body: unknown; bytes: Buffer };

// The domain functions used for fixtures may open Redis connections (REDIS_URL runs): close
// them when the file's tests are done, or they keep the test process alive.
after(() => closeRedis());

/**
 * The loopback address (127.0.0.0/8) this test process speaks from, to servers on 127.0.0.1.
 * The service keeps allowances per client address (failed log-ins, invalid keys, reset links):
 * with one address for every file of a run, the files that spend them on purpose (throttles,
 * two-factor, the authorization matrix) spent one allowance together, and a run that went
 * faster than the refill locked the next of them out.
 */
export const CLIENT_ADDRESS = `127.1.${(process.pid >> 8) & 255}.${process.pid & 255}`;
const fromClientAddress = (origin: string | URL) => new URL(origin).hostname === "127.0.0.1";
setGlobalDispatcher(
  new UndiciAgent({
    factory: (origin, options) =>
      new Pool(origin, fromClientAddress(origin) ? { ...options, localAddress: CLIENT_ADDRESS } : options),
  }),
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `condition` holds (checked every 20 ms); fails after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}
const pacers = new Map<string, { tokens: number; at: number }>();

/**
 * Keeps this process's requests with one key inside the key's token bucket (a little under
 * it), so tests of other things never meet a 429. The rate-limit tests send `paced: false`.
 */
async function pace(key: string): Promise<void> {
  // A little under the key's rule (server/rate-limit/index.ts): one token less, one a second less.
  const rule = keyRule(key.startsWith("qrb_") ? "business" : "personal");
  const [capacity, rate] = [rule.capacity - 1, rule.refillPerSecond - 1];
  const state = pacers.get(key) ?? { tokens: capacity, at: Date.now() };
  pacers.set(key, state);
  for (;;) {
    const now = Date.now();
    state.tokens = Math.min(capacity, state.tokens + ((now - state.at) * rate) / 1000);
    state.at = now;
    if (state.tokens >= 1) {
      state.tokens -= 1;
      return;
    }
    await sleep(((1 - state.tokens) * 1000) / rate);
  }
}

export async function http(
  method: string,
  path: string,
  options: {
    key?: string;
    json?: unknown;
    body?: string;
    headers?: Record<string, string>;
    paced?: boolean;
    /** Another server than the run's. */
    base?: string;
  } = {},
): Promise<Reply> {
  if (options.key && options.paced !== false) await pace(options.key);
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers["x-api-key"] = options.key;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch((options.base ?? BASE_URL) + path, { method, headers, body, redirect: "manual" });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString("utf8");
  checkAgainstDocument(method, path, res.status, res.headers.get("content-type"), text);
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed, bytes };
}

/**
 * Logs in through next-auth's credentials flow, as the login page does, and returns a caller
 * of the pages' tRPC procedures with that session (what a click on the page sends). `extra`:
 * the authentication code of an account with two-factor, and the browser's headers.
 */
export async function logIn(
  email: string,
  password = TEST_PASSWORD,
  base = BASE_URL,
  extra: { code?: string; headers?: Record<string, string> } = {},
) {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${base}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...extra.headers, "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({
      csrfToken,
      email,
      password,
      ...(extra.code === undefined ? {} : { code: extra.code }),
      json: "true",
    }),
  });
  keep(login);
  if (![...jar.keys()].some((k) => k.includes("session-token"))) {
    // next-auth names the reason in the address it sends the browser to.
    const where =
      login.headers.get("location") ?? ((await login.json().catch(() => ({}))) as { url?: string }).url ?? "";
    throw new Error(
      `log-in failed for ${email}: ${decodeURIComponent(new URL(where, base).searchParams.get("error") ?? String(login.status))}`,
    );
  }
  const unwrap = async (res: Response) => {
    const body = (await res.json()) as { result?: { data: unknown }; error?: { message: string } };
    if (body.error) throw new Error(body.error.message);
    return body.result!.data;
  };
  /** A mutation, as a click sends it. */
  const call = async (procedure: string, input?: unknown): Promise<unknown> =>
    unwrap(
      await fetch(`${base}/api/trpc/${procedure}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: cookie(), origin: base },
        body: input === undefined ? undefined : JSON.stringify(input),
      }),
    );
  return Object.assign(call, {
    /** The Set-Cookie lines of the log-in answer. */
    setCookies: login.headers.getSetCookie(),
    /** The session's Cookie header, for requests made by hand. */
    cookie,
    /** A query, as a page load sends it. */
    query: async (procedure: string, input?: unknown) =>
      unwrap(
        await fetch(
          `${base}/api/trpc/${procedure}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          { headers: { cookie: cookie() } },
        ),
      ),
    /** Any page or download, with the session. */
    get: (path: string) => fetch(base + path, { headers: { cookie: cookie() }, redirect: "manual" }),
  });
}

export const TEST_PASSWORD = "test-password-1";

/**
 * Which of the contract's error bodies this is: exactly `{"error": "…"}`, or exactly
 * `{"errors": [{"index", "error"}…]}`; null for anything else.
 */
export function contractErrorShape(body: unknown): "error" | "errors" | null {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const keys = Object.keys(body);
  if (keys.length !== 1) return null;
  const value = (body as Record<string, unknown>)[keys[0]];
  if (keys[0] === "error") return typeof value === "string" && value.length > 0 ? "error" : null;
  const items =
    keys[0] === "errors" &&
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (e) =>
        e &&
        typeof e === "object" &&
        Object.keys(e).sort().join() === "error,index" &&
        Number.isInteger(e.index) &&
        typeof e.error === "string",
    );
  return items ? "errors" : null;
}

type BurstReply = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/**
 * GET requests to be sent at once, on connections opened beforehand (one per request), so
 * that the burst reaches the server within a millisecond or two: fetch opens connections as
 * it goes, and a burst spread over more than 1/refill seconds would rightly let one more
 * request through. `fire()` sends them all and returns the replies in order.
 */
export async function prepareBurst(
  targets: { url: string; headers?: Record<string, string> }[],
): Promise<{ fire: () => Promise<BurstReply[]> }> {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: Infinity, localAddress: CLIENT_ADDRESS });
  const send = (url: string, headers: Record<string, string> = {}) =>
    new Promise<BurstReply>((resolve, reject) => {
      const req = httpRequest(url, { agent, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    });
  // `/q/-` is answered at once without the database: it only opens the connections.
  await Promise.all(targets.map((t) => send(new URL("/q/-", t.url).toString())));
  return {
    fire: async () => {
      try {
        return await Promise.all(targets.map((t) => send(t.url, t.headers)));
      } finally {
        agent.destroy();
      }
    },
  };
}

export const burst = async (targets: { url: string; headers?: Record<string, string> }[]) =>
  (await prepareBurst(targets)).fire();

/** An account whose address is verified (sign-up from the pages leaves it unverified: tests/api/accounts-*). */
export async function makeUser(tier: Tier = "pro") {
  const email = `user-${randomUUID()}@test.example`;
  const user = await createUser({ email, password: TEST_PASSWORD, name: "Test User" }, tier, { verified: true });
  return user;
}

/** A Pro account and its live personal key. */
export async function personalKey(tier: Tier = "pro") {
  const user = await makeUser(tier);
  const { key, summary } = await generateKey(user.id, "personal");
  return { user, key, keyId: summary.id };
}

/** A team whose owner (Business) is its admin with a live business key; add members at will. */
export async function makeTeam() {
  const admin = await makeUser("business");
  const team = await createTeam(admin.id, `Team ${admin.email}`);
  const { key: adminKey } = await generateBusinessKey(admin.id);
  const addMember_ = async (role: Role) => {
    const user = await makeUser("free"); // a member's own tier does not matter in the team
    await addMember(admin.id, user.email, role);
    return user;
  };
  return {
    id: team.id,
    admin,
    adminKey,
    addMember: addMember_,
    /** A writer with a live business key. */
    addWriter: async () => {
      const user = await addMember_("writer");
      return { user, key: (await generateBusinessKey(user.id)).key };
    },
  };
}

/** A Redis of its own and two servers sharing it, started before this suite's tests and stopped after. */
export function withPair(): Awaited<ReturnType<typeof startPair>> {
  const pair = {} as Awaited<ReturnType<typeof startPair>>;
  before(async () => {
    Object.assign(pair, await startPair());
  });
  after(() => pair.stop());
  return pair;
}

export { generateKey, revokeKey };
