// Server secrets (session signing, visitor hashing). Taken from the environment; with the
// embedded SQLite default and no value set, a random one is generated once and kept in
// ./data/secrets.json (never committed). A PostgreSQL deployment must set them.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { backendOf } from "./database-url";
import { env } from "./env";

const SECRETS_FILE = path.resolve("data", "secrets.json");
const cache = new Map<string, string>();

export function secret(envName: string): string {
  const fromEnv = process.env[envName];
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error(`${envName} must be at least 32 characters`);
    return fromEnv;
  }
  const cached = cache.get(envName);
  if (cached) return cached;
  if (backendOf(env.databaseUrl) !== "sqlite") {
    throw new Error(`${envName} must be set when DATABASE_URL is not the embedded SQLite database`);
  }
  mkdirSync(path.dirname(SECRETS_FILE), { recursive: true });
  const stored: Record<string, string> = existsSync(SECRETS_FILE) ? JSON.parse(readFileSync(SECRETS_FILE, "utf8")) : {};
  if (!stored[envName]) {
    stored[envName] = randomBytes(32).toString("base64url");
    writeFileSync(SECRETS_FILE, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  cache.set(envName, stored[envName]);
  return stored[envName];
}
