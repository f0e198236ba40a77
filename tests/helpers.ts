// Test helpers: plain HTTP to the running server, and fixtures made through the domain
// functions on the same database (the pages would do the same through their forms).
import { randomUUID } from "node:crypto";
import { generateKey, revokeKey } from "../server/domain/apiKeys";
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

export async function makeUser(tier: Tier = "pro") {
  const email = `user-${randomUUID()}@test.example`;
  const user = await createUser({ email, password: "test-password-1", name: "Test User" }, tier);
  return user;
}

/** A Pro account and its live personal key. */
export async function personalKey(tier: Tier = "pro") {
  const user = await makeUser(tier);
  const { key, summary } = await generateKey(user.id, "personal");
  return { user, key, keyId: summary.id };
}

export { generateKey, revokeKey };
