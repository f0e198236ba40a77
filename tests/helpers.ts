// Test helpers: plain HTTP to the running server, and fixtures made through the domain
// functions on the same database (the pages would do the same through their forms).
import { randomUUID } from "node:crypto";
import { generateKey, revokeKey } from "../server/domain/apiKeys";
import { addMember, createTeam, generateBusinessKey, type Role } from "../server/domain/teams";
import { createUser, type Tier } from "../server/domain/users";

export const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";

export type Reply = { status: number; headers: Headers; text: string; body: unknown };

export async function http(
  method: string,
  path: string,
  options: { key?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers["x-api-key"] = options.key;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(BASE_URL + path, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/**
 * Logs in through next-auth's credentials flow, as the login page does, and returns a caller
 * of the pages' tRPC procedures with that session (what a click on the page sends).
 */
export async function logIn(email: string, password = TEST_PASSWORD) {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${BASE_URL}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await fetch(`${BASE_URL}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  keep(login);
  if (![...jar.keys()].some((k) => k.includes("session-token"))) throw new Error(`log-in failed for ${email}`);
  return async function call(procedure: string, input?: unknown): Promise<unknown> {
    const res = await fetch(`${BASE_URL}/api/trpc/${procedure}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: cookie(), origin: BASE_URL },
      body: input === undefined ? undefined : JSON.stringify(input),
    });
    const body = (await res.json()) as { result?: { data: unknown }; error?: { message: string } };
    if (body.error) throw new Error(body.error.message);
    return body.result!.data;
  };
}

export const TEST_PASSWORD = "test-password-1";

export async function makeUser(tier: Tier = "pro") {
  const email = `user-${randomUUID()}@test.example`;
  const user = await createUser({ email, password: TEST_PASSWORD, name: "Test User" }, tier);
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

export { generateKey, revokeKey };
