// Dynamic codes that do more (contract, Part 2): expiry, targets by OS, device and country, UTM
// tags and passwords. The record fields and their checks (fields.ts), how a stored row becomes
// the record and the cached resolution, the redirect's choice of URL, and the password form
// (password.ts). The short link applies them in the contract's order: expired → password →
// first matching target, else destination_url → UTM parameters.
import { countryOf } from "../scan/country";
import { describeAgent } from "../scan/visitor";
import { sendableUrl } from "../platform/urls";
import type { Target, Utm } from "./fields";

export * from "./fields";
export { answerPasswordForm, checkPassword, passwordFormPage, type PasswordCheck } from "./password";

/** The rule columns of a DynamicCode row. */
export type RuleColumns = {
  expiresAt: Date | string | null;
  expiredUrl: string | null;
  targets: string | null;
  utm: string | null;
  passwordHash: string | null;
};

/** Targets as sent: their URLs serialised (rows stored before the rule may hold raw ones; server/platform/urls.ts). */
export const sendableTargets = (targets: Target[]): Target[] => targets.map((t) => ({ ...t, url: sendableUrl(t.url) }));

/** The rules as records show them. */
export type RulesRecord = {
  expires_at: number | null;
  expired_url: string | null;
  targets: Target[] | null;
  utm: Utm | null;
  password_protected: boolean;
};
export const rulesRecordOf = (row: RuleColumns): RulesRecord => ({
  // new Date(): a raw query gives SQLite's stored text or PostgreSQL's Date.
  expires_at: row.expiresAt === null ? null : Math.floor(new Date(row.expiresAt).getTime() / 1000),
  expired_url: row.expiredUrl === null ? null : sendableUrl(row.expiredUrl),
  targets: row.targets === null ? null : sendableTargets(JSON.parse(row.targets) as Target[]),
  utm: row.utm === null ? null : (JSON.parse(row.utm) as Utm),
  password_protected: row.passwordHash !== null,
});

/**
 * `url` with the utm_* parameters it does not have yet, added at the end of its query: the
 * rest of the URL (existing parameters, their encoding, the fragment) is kept as written.
 */
export function withUtm(url: string, utm: Utm | null): string {
  if (!utm) return url;
  const hash = url.indexOf("#");
  const fragment = hash === -1 ? "" : url.slice(hash);
  const base = hash === -1 ? url : url.slice(0, hash);
  const query = base.indexOf("?");
  const present = new URLSearchParams(query === -1 ? "" : base.slice(query + 1));
  const added = Object.entries(utm)
    .filter(([key, value]) => value !== undefined && !present.has(`utm_${key}`))
    .map(([key, value]) => `utm_${key}=${encodeURIComponent(value!)}`);
  if (added.length === 0) return url;
  const joiner = query === -1 ? "?" : /[?&]$/.test(base) ? "" : "&";
  return `${base}${joiner}${added.join("&")}${fragment}`;
}

/** What the cached resolution of an active code carries of its rules (absent when unset). */
export type ResolvedRules = {
  /** Epoch milliseconds. */
  expiresAt?: number;
  expiredUrl?: string;
  /** In order; each url already carries the code's utm parameters. */
  targets?: Target[];
  passwordHash?: string;
};

/** A row's rules for the resolution: the UTM tags are applied here once, not per scan. */
export function resolvedRulesOf(row: RuleColumns): { destination: (url: string) => string; rules: ResolvedRules } {
  const utm = row.utm === null ? null : (JSON.parse(row.utm) as Utm);
  const rules: ResolvedRules = {};
  if (row.expiresAt !== null) rules.expiresAt = new Date(row.expiresAt).getTime();
  if (row.expiredUrl !== null) rules.expiredUrl = sendableUrl(row.expiredUrl);
  if (row.targets !== null) {
    const targets = (JSON.parse(row.targets) as Target[]).map((t) => ({ ...t, url: withUtm(sendableUrl(t.url), utm) }));
    if (targets.length > 0) rules.targets = targets;
  }
  if (row.passwordHash !== null) rules.passwordHash = row.passwordHash;
  return { destination: (url) => withUtm(sendableUrl(url), utm), rules };
}

/** The scan facts targets may ask about. */
export type Scanner = { userAgent: string; address: string; countryHeader: string | null };

/**
 * The first target whose conditions all match, else the destination. The user agent is parsed
 * (memoized, as the recorder does) and the country looked up only when a target asks.
 */
export function chooseUrl(targets: Target[] | undefined, destinationUrl: string, scanner: Scanner): string {
  if (targets === undefined) return destinationUrl;
  let agent: { os: string; device: string } | undefined;
  let country: string | undefined;
  for (const target of targets) {
    if (target.os !== undefined || target.device !== undefined) {
      agent ??= describeAgent(scanner.userAgent);
      if (target.os !== undefined && target.os !== agent.os) continue;
      if (target.device !== undefined && target.device !== agent.device) continue;
    }
    if (
      target.country !== undefined &&
      target.country !== (country ??= countryOf(scanner.countryHeader, scanner.address))
    )
      continue;
    return target.url;
  }
  return destinationUrl;
}
