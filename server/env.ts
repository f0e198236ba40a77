// Configuration read from the environment, in one place. See the README's table.
import { DEFAULT_DATABASE_URL } from "./database-url";

const int = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
};

/** Computed on first use and kept: a read of process.env costs about a microsecond, and the
 * short base URL is read once per record of a list page. */
export function once<T>(compute: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: compute() }).v;
}
const appUrl = once(() => (process.env.APP_URL || process.env.NEXTAUTH_URL || "http://localhost:3000").replace(/\/+$/, ""));
const shortBaseUrl = once(() => (process.env.SHORT_BASE_URL || appUrl()).replace(/\/+$/, ""));

export const env = {
  get databaseUrl() {
    return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  },
  /** The app's public base URL; used for links and as the default short base URL. */
  get appUrl() {
    return appUrl();
  },
  get shortBaseUrl() {
    return shortBaseUrl();
  },
  get keyActivationDelaySeconds() {
    return int("API_KEY_ACTIVATION_DELAY_SECONDS", 0);
  },
};
