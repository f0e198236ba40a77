// The rules' fields as requests send them and records show them (contract: "Dynamic codes that
// do more"): one set of schemas for create, batch create, PATCH and the web editor. Each
// message names its field with the rule's place (`targets[3].os`); a batch's error names the
// item by index as every batch error does.
import { z } from "zod";
import { now } from "../platform/clock";
import { boundedArray, checkedUrl, urlProblem } from "../library/validation";
import { COUNTRIES, MAX_TARGETS, TARGET_DEVICES, TARGET_OS, UTM_KEYS } from "./choices";

export { COUNTRIES, MAX_TARGETS, TARGET_DEVICES, TARGET_OS, UTM_KEYS };
export const MAX_UTM = 100;
/** A password rule's characters at most. */
export const MAX_SCAN_PASSWORD = 128;
const isCountryCode = (value: string) => /^[A-Z]{2}$/.test(value) && COUNTRIES.some((c) => c.code === value);

/** `targets[3].url` from an issue's path (which may start with a batch's `dynqrcodes.0`). */
function fieldOf(path: PropertyKey[] | undefined, top: string): string {
  const rest = (path ?? []).slice(Math.max(0, (path ?? []).lastIndexOf(top)));
  return rest.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("") || top;
}

type Issue = { path?: PropertyKey[]; input?: unknown; code?: string; keys?: string[] };

const targetUrl = checkedUrl(
  z.string({
    error: (issue) =>
      `${fieldOf(issue.path, "targets")} ${issue.input === undefined ? "is required" : "must be a string"}`,
  }),
  (issue) => `${fieldOf(issue.path, "targets")} ${urlProblem(issue.input as string)}`,
).meta({
  description: "Where a matching scan goes: the same rules as destination_url.",
  format: "uri",
  maxLength: 2048,
});

const choice = (values: readonly string[], what: string) =>
  z
    .enum(values as [string, ...string[]], {
      error: (issue) => `${fieldOf(issue.path, "targets")} must be one of ${values.join(", ")}`,
    })
    .meta({ description: what });

export const targetField = z
  .strictObject(
    {
      url: targetUrl,
      os: choice(TARGET_OS, "The scanner's operating system, as analytics name it.").optional(),
      device: choice(TARGET_DEVICES, "The scanner's device class, as analytics name it.").optional(),
      country: z
        .string({
          error: (issue) => `${fieldOf(issue.path, "targets")} must be an ISO 3166-1 alpha-2 country code such as DE`,
        })
        .refine(isCountryCode, {
          error: (issue) => `${fieldOf(issue.path, "targets")} must be an ISO 3166-1 alpha-2 country code such as DE`,
        })
        .meta({ description: "ISO 3166-1 alpha-2, upper case.", example: "DE", pattern: "^[A-Z]{2}$" })
        .optional(),
    },
    {
      error: (issue: Issue) =>
        issue.code === "unrecognized_keys"
          ? `${fieldOf(issue.path, "targets")} has an unknown field: ${issue.keys!.join(", ")}`
          : `${fieldOf(issue.path, "targets")} must be an object with url and os, device or country`,
    },
  )
  .refine((target) => target.os !== undefined || target.device !== undefined || target.country !== undefined, {
    error: (issue) => `${fieldOf(issue.path, "targets")} needs at least one of os, device, country`,
  })
  .meta({
    id: "Target",
    description: "A rule: a scan matching every condition given goes to url.",
    example: { url: "https://apps.apple.com/app/id1", os: "iOS" },
  });
export type Target = z.infer<typeof targetField>;

export const targetsField = boundedArray(
  MAX_TARGETS,
  z
    .array(targetField, { error: "targets must be an array of rules, or null" })
    .max(MAX_TARGETS, `targets holds at most ${MAX_TARGETS} rules`),
)
  .nullable()
  .meta({
    description: `Up to ${MAX_TARGETS} rules, tried in order; the first whose conditions all match decides the destination, else destination_url.`,
  });

const utmValue = (key: string) =>
  z
    .string({ error: `utm.${key} must be a string of 1 to ${MAX_UTM} characters` })
    .min(1, `utm.${key} must be a string of 1 to ${MAX_UTM} characters`)
    .max(MAX_UTM, `utm.${key} must be a string of 1 to ${MAX_UTM} characters`)
    .optional();

const utmObject = z
  .strictObject(
    Object.fromEntries(UTM_KEYS.map((key) => [key, utmValue(key)])) as Record<
      (typeof UTM_KEYS)[number],
      ReturnType<typeof utmValue>
    >,
    {
      error: (issue: Issue) =>
        issue.code === "unrecognized_keys"
          ? `utm has an unknown field: ${issue.keys!.join(", ")}`
          : "utm must be an object, or null",
    },
  )
  .meta({
    id: "Utm",
    description: "utm_* parameters added to the chosen URL, unless it already has that parameter.",
    example: { source: "qr", campaign: "spring" },
  });
export const utmField = utmObject.nullable();

export type Utm = NonNullable<z.infer<typeof utmField>>;

const EXPIRES_AT = "expires_at must be a time in seconds since the epoch (an integer), or null";
export const expiresAtField = z
  .number({ error: EXPIRES_AT })
  .int(EXPIRES_AT)
  .min(0, EXPIRES_AT)
  .max(9_999_999_999, EXPIRES_AT)
  .nullable()
  .meta({
    description:
      "Seconds since the epoch from which the short link answers 410 (or redirects to expired_url); null: never.",
    example: 1798761600,
  });

/** On create the expiry must lie ahead (a PATCH may end a code now). */
export const futureExpiresAtField = expiresAtField.refine(
  (value) => value === null || value > now().getTime() / 1000,
  "expires_at must be in the future",
);

export const expiredUrlField = checkedUrl(
  z.string({ error: "expired_url must be a string, or null" }),
  (issue) => `expired_url ${urlProblem(issue.input as string)}`,
)
  .nullable()
  .meta({
    description: "Where the short link sends scans once the code has expired; null: a 410 page.",
    format: "uri",
    maxLength: 2048,
  });

export const passwordField = z
  .string({ error: "password must be a string of 4 to 128 characters, or null" })
  .min(4, "password must be 4 to 128 characters")
  .max(MAX_SCAN_PASSWORD, `password must be 4 to ${MAX_SCAN_PASSWORD} characters`)
  .nullable()
  .meta({
    description:
      "Write-only: scans must enter it first. Never echoed; records show password_protected. null removes it.",
    writeOnly: true,
  });

/** The rules a create or PATCH accepts, each optional. */
export const rulesInput = {
  expires_at: expiresAtField.optional(),
  expired_url: expiredUrlField.optional(),
  targets: targetsField.optional(),
  utm: utmField.optional(),
  password: passwordField.optional(),
};
export const RULE_FIELDS = Object.keys(rulesInput) as (keyof typeof rulesInput)[];

/** What every record shows of its rules. */
export const rulesRecord = {
  expires_at: z
    .number()
    .int()
    .nullable()
    .meta({ description: "Seconds since the epoch; null: never expires.", example: 1798761600 }),
  expired_url: z.string().nullable(),
  targets: z.array(targetField).nullable(),
  utm: utmField,
  password_protected: z
    .boolean()
    .meta({ description: "Whether scans must enter a password first (the password itself is never shown)." }),
};
