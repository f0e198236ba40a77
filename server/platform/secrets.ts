// Server secrets (session signing, visitor hashing). Taken from the environment; with the
// embedded SQLite default and no value set, a random one is generated once and kept in
// ./data/secrets.json (never committed). A PostgreSQL deployment must set them.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "./env";
import { processSingleton } from "./process-singleton";

const SECRETS_FILE = path.resolve("data", "secrets.json");
const cache = processSingleton("secrets", () => new Map<string, string>());

/** Placeholders from docs and examples that people paste as they are. */
const KNOWN_WEAK = [
  "changeme",
  "change-me",
  "secret",
  "your-secret",
  "your_secret",
  "supersecret",
  "replace-me",
  "replaceme",
  "password",
  "nextauth",
  "development",
  "example",
];

/** Why a secret from the environment is not good enough, or null. */
export function weakness(value: string): string | null {
  if (value.length < 32) return "must be at least 32 characters";
  if (new Set(value).size < 10) return "is too repetitive: use a random value (openssl rand -base64 32)";
  // A placeholder repeated to the length, with digits or dashes between ("changeme-changeme-…1").
  const letters = value.toLowerCase().replace(/[^a-z]/g, "");
  const placeholder = KNOWN_WEAK.find((weak) => new RegExp(`^(${weak.replace(/[^a-z]/g, "")})+$`).test(letters));
  if (placeholder) return `is a known placeholder ("${placeholder}"): use a random value (openssl rand -base64 32)`;
  return null;
}

/** Both secrets, checked once at start-up so that a server never runs with a missing or weak one. */
export const SECRET_NAMES = ["NEXTAUTH_SECRET", "VISITOR_HASH_SECRET"] as const;

export function secret(envName: (typeof SECRET_NAMES)[number]): string {
  // Kept once known: the visitor hash asks for its secret on every scan.
  const cached = cache.get(envName);
  if (cached) return cached;
  const fromEnv = env.secrets[envName];
  if (fromEnv) {
    const problem = weakness(fromEnv);
    if (problem) throw new Error(`${envName} ${problem}`);
    cache.set(envName, fromEnv);
    return fromEnv;
  }
  if (env.backend !== "sqlite") {
    throw new Error(`${envName} must be set when DATABASE_URL is not the embedded SQLite database`);
  }
  mkdirSync(path.dirname(SECRETS_FILE), { recursive: true, mode: 0o700 });
  const stored: Record<string, string> = existsSync(SECRETS_FILE) ? JSON.parse(readFileSync(SECRETS_FILE, "utf8")) : {};
  if (!stored[envName]) {
    stored[envName] = randomBytes(32).toString("base64url");
    writeFileSync(SECRETS_FILE, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  cache.set(envName, stored[envName]);
  return stored[envName];
}

/**
 * A 32-byte key for `purpose` (e.g. encrypting TOTP secrets), derived from NEXTAUTH_SECRET with
 * HKDF-SHA-256: changing NEXTAUTH_SECRET makes what was sealed under it unreadable.
 */
export function derivedKey(purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret("NEXTAUTH_SECRET"), "", `qr-records:${purpose}`, 32));
}

/**
 * `text` sealed for `purpose` (AES-256-GCM under derivedKey(purpose)): `v1.<iv>.<tag>.<ciphertext>`,
 * base64url. Secrets that must be read back (TOTP, webhook signing) are stored so: a copy of
 * the database alone does not give them away.
 */
export function seal(purpose: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey(purpose), iv);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** What seal(purpose, …) sealed; throws when it cannot be opened (another NEXTAUTH_SECRET, or damaged). */
export function unseal(purpose: string, stored: string): string {
  const [version, iv, tag, sealed] = stored.split(".");
  if (version !== "v1") throw new Error(`Unknown sealed secret version ${version}`);
  const decipher = createDecipheriv("aes-256-gcm", derivedKey(purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
}
