// A bundle's lines (docs/BUNDLE.md): what each type holds, its defaults, and the check of one
// line's text. The code lines go through the create's own field schemas; scan lines, a million
// of them in a big bundle, are checked by hand (a zod object cost several times as much).
import { z } from "zod";
import { COUNTRIES, expiredUrlField, expiresAtField, targetsField, utmField } from "../rules";
import { backHalfField, isCodeShaped } from "../library/backHalf";
import { memoize } from "../platform/memoize";
import { STATUSES } from "../library/dynamicRecords";
import { externalIdField, metadataField } from "../library/recordExtras";
import { bodyObject, nameField, styleField, urlField } from "../library/validation";
import { refineTyped } from "../library/staticRecords";
import { contentField, typeField } from "../codeTypes/typedFields";
import { checkDynamicTyped, dynamicTypeField, hostedContentField } from "../hosted/content";

export const BUNDLE_VERSION = 1;
/** A line's bytes at most (a style's logo is at most 64 KiB: any real line fits). */
export const MAX_LINE_BYTES = 1024 * 1024;
/** The problems listed at most in one answer. */
export const MAX_LINE_ERRORS = 100;

const SECONDS = "must be a time in seconds since the epoch (an integer)";
const seconds = (field: string) =>
  z
    .number({ error: `${field} ${SECONDS}` })
    .int(`${field} ${SECONDS}`)
    .min(0, `${field} ${SECONDS}`)
    .max(9_999_999_999, `${field} ${SECONDS}`);
const idField = z
  .string({ error: "qr_id must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -" })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "qr_id must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -");
/** A stored scrypt hash (server/accounts/passwords.ts), never a password. */
const passwordHashField = z
  .string({ error: "password_hash must be a stored scrypt hash, or null" })
  .regex(/^scrypt\$\d{1,7}\$\d{1,3}\$\d{1,3}\$[A-Za-z0-9+/]{1,64}={0,2}\$[A-Za-z0-9+/]{1,128}={0,2}$/, {
    error: "password_hash must be a stored scrypt hash (scrypt$N$r$p$salt$hash), or null",
  });
const domainField = z
  .string({ error: "domain must be a host name, or null" })
  .max(253, "domain must be a host name, or null")
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "domain must be a host name, or null");

const headLine = bodyObject({
  type: z.literal("bundle"),
  version: z.number({ error: "version must be 1" }),
  exported_at: seconds("exported_at").optional(),
});
const domainLine = bodyObject({
  type: z.literal("domain"),
  domain: domainField,
  verified: z.boolean({ error: "verified must be true or false" }).optional(),
});
const staticLine = bodyObject({
  type: z.literal("static"),
  qr_id: idField.optional(),
  // The record's `type` (url, wifi, …): `type` names the line's kind here.
  code_type: typeField.optional(),
  url: urlField("url").nullable().optional(),
  content: contentField.optional(),
  name: nameField,
  style: styleField.optional(),
  status: z.enum(["active", "draft"], { error: "status must be one of active, draft" }).optional(),
  metadata: metadataField.nullable().optional(),
  external_id: externalIdField.nullable().optional(),
  created_at: seconds("created_at").optional(),
  updated_at: seconds("updated_at").optional(),
}).superRefine((line, ctx) => refineTyped({ ...line, type: line.code_type }, ctx));
const dynamicLine = bodyObject({
  type: z.literal("dynamic"),
  code: backHalfField,
  domain: domainField.nullable().optional(),
  qr_id: idField.optional(),
  // The record's `type` (url, vcard, page), as on static lines.
  code_type: dynamicTypeField.optional(),
  destination_url: urlField("destination_url").nullable().optional(),
  content: hostedContentField.optional(),
  name: nameField,
  status: z.enum(STATUSES, { error: "status must be one of active, paused, draft" }).optional(),
  style: styleField.optional(),
  expires_at: expiresAtField.optional(),
  expired_url: expiredUrlField.optional(),
  targets: targetsField.optional(),
  utm: utmField.optional(),
  password_hash: passwordHashField.nullable().optional(),
  metadata: metadataField.nullable().optional(),
  external_id: externalIdField.nullable().optional(),
  published_at: seconds("published_at").nullable().optional(),
  created_at: seconds("created_at").optional(),
  updated_at: seconds("updated_at").optional(),
}).superRefine((line, ctx) => {
  for (const issue of checkDynamicTyped(line.code_type ?? "url", line.destination_url, line.content).issues)
    ctx.addIssue({ code: "custom", ...issue });
});

export type HeadLine = z.infer<typeof headLine>;
export type DomainLine = z.infer<typeof domainLine>;
export type StaticLine = z.infer<typeof staticLine>;
export type DynamicLine = z.infer<typeof dynamicLine>;
export type ScanLine = {
  type: "scan";
  code: string;
  domain: string | null;
  scanned_at: number;
  country: string;
  device: string;
  os: string;
  browser: string;
  unique: boolean;
  /** Absent: the code's destination_url (a hosted page's scans: absent). */
  destination?: string;
};
export type BundleLine = HeadLine | DomainLine | StaticLine | DynamicLine | ScanLine;

const SCHEMAS = { bundle: headLine, domain: domainLine, static: staticLine, dynamic: dynamicLine } as const;

export const DEVICES = ["mobile", "tablet", "desktop", "other"] as const;
// Lookups by key (plain objects: module state is immutable here, and needs no processSingleton).
const COUNTRY_CODES: Record<string, true> = Object.fromEntries(
  [...COUNTRIES.map((c) => c.code), "ZZ"].map((c) => [c, true]),
);
const SCAN_FIELDS: Record<string, true> = Object.fromEntries(
  ["type", "code", "domain", "scanned_at", "country", "device", "os", "browser", "unique", "destination"].map((f) => [
    f,
    true,
  ]),
);
const MAX_AGENT_NAME = 100;
const scannedAtField = seconds("scanned_at");
/**
 * A scan's destination, checked (and serialised) once per distinct URL: a million scans name a
 * few destinations, and a URL's check parses it.
 */
const checkedDestination = memoize(
  "bundle.destination",
  (value): { url: string } | { problem: string } => {
    const parsed = urlField("destination").safeParse(value);
    return parsed.success ? { url: parsed.data } : { problem: parsed.error.issues[0].message };
  },
  1000,
);

const agentName = (value: unknown, field: string): string => {
  if (value === undefined) return "Unknown";
  if (typeof value !== "string" || value.length < 1 || value.length > MAX_AGENT_NAME || /[\u0000-\u001f]/.test(value))
    throw new LineProblem(`${field} must be 1 to ${MAX_AGENT_NAME} characters`);
  return value;
};

/** A scan line's fields, checked one by one (docs/BUNDLE.md, `scan`). */
function scanLine(value: Record<string, unknown>): ScanLine {
  for (const key of Object.keys(value))
    if (!Object.hasOwn(SCAN_FIELDS, key)) throw new LineProblem(`Unknown field: ${key}`);
  const { code, domain = null, scanned_at, country = "ZZ", device = "other", unique = true, destination } = value;
  // Its shape only: it must also be a dynamic line's code, which the check of the whole bundle sees.
  if (typeof code !== "string" || !isCodeShaped(code)) throw new LineProblem("code must be the code of a dynamic line");
  if (domain !== null && !domainField.safeParse(domain).success)
    throw new LineProblem("domain must be a host name, or null");
  if (typeof scanned_at !== "number" || !scannedAtField.safeParse(scanned_at).success)
    throw new LineProblem(`scanned_at ${SECONDS}`);
  if (typeof country !== "string" || !Object.hasOwn(COUNTRY_CODES, country))
    throw new LineProblem("country must be an ISO 3166-1 alpha-2 code, or ZZ");
  if (typeof device !== "string" || !(DEVICES as readonly string[]).includes(device))
    throw new LineProblem(`device must be one of ${DEVICES.join(", ")}`);
  if (typeof unique !== "boolean") throw new LineProblem("unique must be true or false");
  let sentTo: string | undefined;
  if (destination !== undefined) {
    if (typeof destination !== "string") throw new LineProblem("destination must be a string");
    const checked = checkedDestination(destination);
    if ("problem" in checked) throw new LineProblem(checked.problem);
    sentTo = checked.url;
  }
  return {
    type: "scan",
    code,
    domain: domain as string | null,
    scanned_at,
    country,
    device,
    os: agentName(value.os, "os"),
    browser: agentName(value.browser, "browser"),
    unique,
    destination: sentTo,
  };
}

/** A line's problem, told with its line number by the caller. */
export class LineProblem extends Error {}

/** One line's text as a checked line (blank: null), or a LineProblem. */
export function parseLine(text: string): BundleLine | null {
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LineProblem("not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new LineProblem("a line must be a JSON object");
  const type = (value as { type?: unknown }).type;
  if (type === "scan") return scanLine(value as Record<string, unknown>);
  if (typeof type !== "string" || !Object.hasOwn(SCHEMAS, type))
    throw new LineProblem("type must be one of bundle, domain, static, dynamic, scan");
  const parsed = SCHEMAS[type as keyof typeof SCHEMAS].safeParse(value);
  if (!parsed.success) throw new LineProblem(parsed.error.issues[0].message);
  return parsed.data;
}
