// The fields of each kind of static code but `url` (contract Part 3, "Every kind of code";
// docs/TYPES.md): one strict schema per type, cheap rules first (a string's length before its
// characters are looked at, an array's count before its items), every message naming its field
// as `content.<field>`. Pure: the pages' forms read the same limits.
import { z } from "zod";

export const CODE_TYPES = ["url", "text", "email", "phone", "sms", "wifi", "vcard", "geo", "event"] as const;
export type CodeType = (typeof CODE_TYPES)[number];
export type ContentType = Exclude<CodeType, "url">;

export const LIMITS = {
  text: 2000,
  email: 254,
  subject: 200,
  body: 1000,
  number: 32,
  ssidBytes: 32,
  name: 100,
  line: 200,
  url: 2048,
  address: 300,
  note: 1000,
  listItems: 10,
} as const;

/** Line breaks and tabs are text; any other control character (NUL, escape) is refused. */
const CONTROL_CLASS = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f";
const LINE_CONTROL_CLASS = "\\u0000-\\u001f\\u007f-\\u009f";
// The same classes as literals (a module-level RegExp object would be state: processSingleton's check).
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LINE_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

type StringRule = { min?: number; max: number; lines?: boolean };
/** A string of `min` to `max` characters (an emoji is one), counted only when it can pass. */
export function text(field: string, { min = 0, max, lines = false }: StringRule) {
  const size = min > 0 ? `1 to ${max}` : `at most ${max}`;
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .refine((value) => value.length <= 2 * max && [...value].length >= min && [...value].length <= max, {
      message: `${field} must be ${size} characters`,
      abort: true,
    })
    .refine((value) => !(lines ? CONTROL : LINE_CONTROL).test(value), {
      message: `${field} must not contain control characters${lines ? " (line breaks and tabs are fine)" : " (line breaks, tabs, NUL)"}`,
    })
    .meta({
      maxLength: max,
      ...(min > 0 ? { minLength: min } : {}),
      pattern: `^[^${lines ? CONTROL_CLASS : LINE_CONTROL_CLASS}]${min > 0 ? "+" : "*"}$`,
    });
}

/** Digits with an optional leading `+` and the usual separators; 3 to 15 digits (E.164 at most). */
export function phoneProblem(value: string): string | null {
  if (value.length > LIMITS.number || !/^\+?[0-9 ()./-]+$/.test(value))
    return `must be a phone number of digits, an optional leading +, spaces, dashes, dots or parentheses (at most ${LIMITS.number} characters)`;
  const digits = value.replace(/\D/g, "").length;
  return digits < 3 || digits > 15 ? "must hold 3 to 15 digits" : null;
}
const phone = (field: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .superRefine((value, ctx) => {
      const problem = phoneProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: `${field} ${problem}` });
    })
    .meta({ maxLength: LIMITS.number, pattern: "^\\+?[0-9 ()./-]+$", example: "+49 30 1234567" });

/** One address `local@domain.tld`: no spaces, brackets, commas or quotes (one recipient). */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/u;
const email = (field: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .refine((value) => value.length <= LIMITS.email && EMAIL.test(value), {
      message: `${field} must be one email address like name@example.com (at most ${LIMITS.email} characters)`,
    })
    .meta({ maxLength: LIMITS.email, format: "email" });

/** Up to 10 items, counted before any is checked. */
const list = <T extends z.ZodType>(field: string, item: T) =>
  z.preprocess(
    (value) => (Array.isArray(value) && value.length > LIMITS.listItems ? value.slice(0, LIMITS.listItems + 1) : value),
    z
      .array(item, { error: `${field} must be an array of strings` })
      .max(LIMITS.listItems, `${field} holds at most ${LIMITS.listItems} items`),
  );

const httpUrl = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .refine(
      (value) => value.length <= LIMITS.url && /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value) && URL.canParse(value),
      {
        message: `${field} must be an absolute http or https URL of at most ${LIMITS.url} characters`,
      },
    )
    .meta({ maxLength: LIMITS.url, format: "uri" });

const coordinate = (field: string, limit: number) =>
  z
    .number({ error: (i) => (i.input === undefined ? `${field} is required` : `${field} must be a number`) })
    .min(-limit, `${field} must be a number from -${limit} to ${limit}`)
    .max(limit, `${field} must be a number from -${limit} to ${limit}`);

/** ISO 8601 with a time and an offset: `2026-12-24T18:00:00+01:00`, `…Z`; seconds and fractions optional. */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The instant an ISO 8601 time with offset names, in epoch milliseconds, or null when it is not one. */
export function instantOf(value: string): number | null {
  const m = ISO_TIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0));
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(local);
  // A day or hour that does not exist (Feb 30th, 25:00) would roll over: refused.
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    return null;
  const offset =
    m[7].toUpperCase() === "Z"
      ? 0
      : (m[7][0] === "-" ? -1 : 1) * (Number(m[7].slice(1, 3)) * 60 + Number(m[7].slice(4)));
  return Math.abs(offset) > 18 * 60 ? null : local - offset * 60_000;
}
const time = (field: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .refine((value) => value.length <= 40 && instantOf(value) !== null, {
      message: `${field} must be an ISO 8601 time with an offset, like 2026-12-24T18:00:00+01:00`,
    })
    .meta({ format: "date-time", maxLength: 40 });

const strict = <T extends z.ZodRawShape>(type: ContentType, shape: T) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `content has an unknown field for type ${type}: ${(issue as { keys: string[] }).keys.join(", ")}`
        : `content must be an object of the ${type} fields`,
  });

const WIFI_PASSWORD =
  "content.password must be 8 to 63 characters or 64 hexadecimal digits for WPA, 5 or 13 characters or 10 or 26 hexadecimal digits for WEP";
const utf8Bytes = (value: string) => new TextEncoder().encode(value).length;

export const CONTENT_SCHEMAS = {
  text: strict("text", { text: text("content.text", { min: 1, max: LIMITS.text, lines: true }) }).meta({
    id: "TextContent",
    example: { text: "Table 12: ask for the lunch menu" },
  }),
  email: strict("email", {
    to: email("content.to"),
    subject: text("content.subject", { max: LIMITS.subject }).optional(),
    body: text("content.body", { max: LIMITS.body, lines: true }).optional(),
  }).meta({ id: "EmailContent", example: { to: "bookings@example.com", subject: "Table for two", body: "Hello!" } }),
  phone: strict("phone", { number: phone("content.number") }).meta({
    id: "PhoneContent",
    example: { number: "+49 30 1234567" },
  }),
  sms: strict("sms", {
    number: phone("content.number"),
    body: text("content.body", { max: LIMITS.body, lines: true }).optional(),
  }).meta({ id: "SmsContent", example: { number: "+4930123456", body: "MENU" } }),
  wifi: strict("wifi", {
    ssid: z
      .string({ error: (i) => (i.input === undefined ? "content.ssid is required" : "content.ssid must be a string") })
      .refine((v) => v.length >= 1 && v.length <= LIMITS.ssidBytes && utf8Bytes(v) <= LIMITS.ssidBytes, {
        message: `content.ssid must be 1 to ${LIMITS.ssidBytes} bytes (UTF-8)`,
        abort: true,
      })
      .refine((v) => !LINE_CONTROL.test(v), { message: "content.ssid must not contain control characters" })
      .meta({
        minLength: 1,
        maxLength: LIMITS.ssidBytes,
        pattern: `^[^${LINE_CONTROL_CLASS}]+$`,
        description: "1 to 32 bytes as UTF-8.",
      }),
    password: z
      .string({ error: "content.password must be a string" })
      .meta({
        maxLength: 64,
        description:
          "WPA: 8 to 63 characters or 64 hex digits; WEP: 5 or 13 characters or 10 or 26 hex digits; none for nopass.",
      })
      .optional(),
    encryption: z.enum(["WPA", "WEP", "nopass"], {
      error: (i) =>
        i.input === undefined ? "content.encryption is required" : "content.encryption must be one of WPA, WEP, nopass",
    }),
    hidden: z.boolean({ error: "content.hidden must be true or false" }).optional(),
  })
    .superRefine((wifi, ctx) => {
      const problem = wifiPasswordProblem(wifi.encryption, wifi.password);
      if (problem) ctx.addIssue({ code: "custom", path: ["password"], message: problem });
    })
    .meta({ id: "WifiContent", example: { ssid: "Café Gäste", password: "espresso;2026", encryption: "WPA" } }),
  vcard: strict("vcard", {
    first_name: text("content.first_name", { min: 1, max: LIMITS.name }),
    last_name: text("content.last_name", { max: LIMITS.name }).optional(),
    organization: text("content.organization", { max: LIMITS.line }).optional(),
    title: text("content.title", { max: LIMITS.line }).optional(),
    phones: list("content.phones", phone("content.phones[]")).optional(),
    emails: list("content.emails", email("content.emails[]")).optional(),
    url: httpUrl("content.url").optional(),
    address: text("content.address", { max: LIMITS.address, lines: true }).optional(),
    note: text("content.note", { max: LIMITS.note, lines: true }).optional(),
  }).meta({
    id: "VcardContent",
    example: {
      first_name: "Zoë",
      last_name: "Müller",
      organization: "Müller & Söhne, Berlin",
      phones: ["+49 30 1234567"],
      emails: ["zoe@example.com"],
      url: "https://example.com",
    },
  }),
  geo: strict("geo", {
    latitude: coordinate("content.latitude", 90),
    longitude: coordinate("content.longitude", 180),
  }).meta({ id: "GeoContent", example: { latitude: 52.520008, longitude: 13.404954 } }),
  event: strict("event", {
    title: text("content.title", { min: 1, max: LIMITS.line }),
    start: time("content.start"),
    end: time("content.end").optional(),
    location: text("content.location", { max: LIMITS.address }).optional(),
    description: text("content.description", { max: LIMITS.note, lines: true }).optional(),
  })
    .superRefine((event, ctx) => {
      if (event.end !== undefined && instantOf(event.end)! < instantOf(event.start)!)
        ctx.addIssue({ code: "custom", path: ["end"], message: "content.end must not be before content.start" });
    })
    .meta({
      id: "EventContent",
      example: { title: "Summer party", start: "2026-07-04T18:00:00+02:00", end: "2026-07-04T23:00:00+02:00" },
    }),
} as const;

/** Why a Wi-Fi password does not suit its encryption (IEEE 802.11 key lengths), or null. */
function wifiPasswordProblem(encryption: "WPA" | "WEP" | "nopass", password: string | undefined): string | null {
  if (encryption === "nopass")
    return password === undefined || password === ""
      ? null
      : "content.password must be left out when encryption is nopass";
  if (password === undefined) return `content.password is required when encryption is ${encryption}`;
  if (LINE_CONTROL.test(password)) return "content.password must not contain control characters";
  const length = [...password].length;
  const hex = /^[0-9A-Fa-f]+$/.test(password);
  const fits =
    encryption === "WPA"
      ? (length >= 8 && length <= 63) || (hex && length === 64)
      : length === 5 || length === 13 || (hex && (length === 10 || length === 26));
  return fits ? null : WIFI_PASSWORD;
}

export type Content = { [T in ContentType]: z.infer<(typeof CONTENT_SCHEMAS)[T]> };
export type AnyContent = Content[ContentType];
