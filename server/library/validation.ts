// Input rules shared by the REST API and the web app (contract: "Records").
// Every message names the field and says what to send instead.
import { z } from "zod";
import { fromZodIssues, invalid } from "../platform/errors";
import { env } from "../platform/env";
import { processSingleton } from "../platform/process-singleton";
import {
  leadsToShortLink,
  MAX_URL_LENGTH,
  ownHostOfBase,
  ownHostOfHeader,
  parsedHttpUrl,
  serialisedUrl,
  type OwnHost,
} from "../platform/urls";
import { undrawableCharacters } from "../images/frameText";
import { logoProblem } from "../images/logo";
import {
  cheapUnreadableReason,
  FINDER_SHAPES,
  FRAME_TEXT_MAX,
  LOGO_SIZE,
  MAX_LOGO_BYTES,
  MODULE_SHAPES,
  unreadable,
  type StyleChoices,
} from "../images/qrStyle";

type Issue = { input?: unknown };
const required = (field: string, expected: string) => (issue: Issue) =>
  issue.input === undefined ? `${field} is required` : `${field} must be ${expected}`;

/** The service's configured base URLs as own hosts (read once: the environment is fixed). */
const baseHosts = () =>
  processSingleton("validation.baseHosts", () =>
    [env.shortBaseUrl, env.appUrl].map(ownHostOfBase).filter((h): h is OwnHost => h !== null),
  );

/**
 * Why `value` is not an acceptable destination, or null. Cheap rules first: the length of the
 * raw string before it is parsed; then the serialisation is judged (its length, the loop rule).
 */
export function urlProblem(value: string): string | null {
  return checkedDestination(value).problem;
}

type CheckedUrl = { value: string; problem: string | null; serialised: string };
/** The last URL checked: a field's rule, its message and its serialisation ask about the same string in turn; parsed once. */
const lastChecked = processSingleton("validation.lastCheckedUrl", (): { url: CheckedUrl } => ({
  url: { value: "", problem: "must be an absolute http or https URL", serialised: "" },
}));

function checkedDestination(value: string): CheckedUrl {
  if (value === lastChecked.url.value) return lastChecked.url;
  const serialised = (problem: string | null, text = "") => (lastChecked.url = { value, problem, serialised: text });
  if (value.length > MAX_URL_LENGTH) return serialised(`must be at most ${MAX_URL_LENGTH} characters`);
  const url = parsedHttpUrl(value);
  if (!url || value.trim() !== value || !url.hostname) return serialised("must be an absolute http or https URL");
  if (url.username || url.password) return serialised("must not contain credentials");
  const text = serialisedUrl(url, value);
  if (text.length > MAX_URL_LENGTH)
    return serialised(
      `must be at most ${MAX_URL_LENGTH} characters once encoded (a character outside ASCII takes up to 9, as %XX)`,
    );
  if (leadsToShortLink(url, baseHosts())) return serialised(LOOP);
  return serialised(null, text);
}
const LOOP = "must not point to this service's own /q/ short links";

/** An accepted destination as the service stores, echoes and sends it (README "Decisions"): the WHATWG serialisation. */
export const serialisedDestination = (value: string): string => checkedDestination(value).serialised;

/** A URL field's string rule: refused (and nothing after it run) unless `urlProblem` passes, then serialised. */
export const checkedUrl = (schema: z.ZodString, message: (issue: z.core.$ZodRawIssue) => string) =>
  schema
    .refine((value) => urlProblem(value) === null, { error: message, abort: true })
    .overwrite(serialisedDestination);

/** A destination the request names by the label its message uses (`targets[0].url`), at its place in the input (`["dynqrcodes", 2, "targets", 0, "url"]`). */
export type NamedDestination = { path: PropertyKey[]; label: string; url: string | null | undefined };

/**
 * The part of the redirect-loop rule that depends on the request: a short link on a host the
 * request reached (`servedHostsOf`). The schemas refuse the configured base URLs themselves;
 * this is checked by the domain, which gets the hosts with the actor. Worded as a failed input check.
 */
export function servedShortLinkIssues(
  servedHosts: readonly string[] | null | undefined,
  destinations: NamedDestination[],
): { path: PropertyKey[]; message: string }[] {
  if (!servedHosts || servedHosts.length === 0) return [];
  const hosts = servedHosts.map(ownHostOfHeader).filter((h): h is OwnHost => h !== null);
  return destinations.flatMap(({ path, label, url }) => {
    // No URL at all, or one too long to parse: the schemas refuse it.
    const parsed = url && url.length <= MAX_URL_LENGTH ? parsedHttpUrl(url) : null;
    return parsed && leadsToShortLink(parsed, hosts) ? [{ path, message: `${label} ${LOOP}` }] : [];
  });
}

/** The same, thrown as a failed input check (a batch's items by index). */
export function refuseServedShortLinks(
  servedHosts: readonly string[] | null | undefined,
  destinations: NamedDestination[],
): void {
  const issues = servedShortLinkIssues(servedHosts, destinations);
  if (issues.length > 0) throw fromZodIssues(issues);
}

export const urlField = (field: string) =>
  checkedUrl(
    z.string({ error: required(field, "a string") }),
    (issue) => `${field} ${urlProblem(issue.input as string)}`,
  ).meta({
    description:
      "Absolute http or https URL, at most 2048 characters as sent and once encoded, no credentials; stored and echoed as its WHATWG serialisation (punycode host, percent-encoded UTF-8).",
    example: "https://example.com/menu",
    format: "uri",
    maxLength: 2048,
  });

/** Control characters (a NUL would go raw into CSV exports), never part of a name. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A name's characters at most (an emoji is one). */
export const MAX_NAME_LENGTH = 200;

export const nameField = z
  .string({ error: required("name", "a string") })
  .superRefine((value, ctx) => {
    // Characters, not UTF-16 units: an emoji is one. Counted only when it can be 200 or fewer
    // (two units a character at most): a megabyte is refused before it is split.
    const trimmed = value.trim();
    const length = trimmed.length > 2 * MAX_NAME_LENGTH ? Infinity : [...trimmed].length;
    if (length < 1 || length > MAX_NAME_LENGTH)
      ctx.addIssue({ code: "custom", message: `name must be 1 to ${MAX_NAME_LENGTH} characters (after trimming)` });
    else if (CONTROL.test(value))
      ctx.addIssue({ code: "custom", message: "name must not contain control characters (line breaks, tabs, NUL)" });
  })
  .meta({
    description: "Display name, 1 to 200 characters (after trimming), no control characters.",
    example: "Lunch menu",
    minLength: 1,
    maxLength: 200,
    pattern: "^[^\\u0000-\\u001f\\u007f-\\u009f]+$",
  });

const colour = (field: string) =>
  z
    .string({ error: `style.${field} must be a colour like #1a2b3c` })
    .regex(/^#[0-9a-fA-F]{6}$/, `style.${field} must be a colour like #1a2b3c`);

/** "ไ (U+0E44)", and "U+E000" alone for what shows as nothing or a box (private use, unassigned, format characters). */
function codePointName(c: string): string {
  const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(c) ? `${c} (${code})` : code;
}

const logoSizeProblem = `style.logo_size must be an integer from ${LOGO_SIZE.min} to ${LOGO_SIZE.max} (percent of the code's area)`;
const frameTextProblem = `style.frame.text must be 1 to ${FRAME_TEXT_MAX} characters, no control characters`;

/** A style's keys and their values, before the rules that decide whether it scans: what may be drawn at all. */
export const styleShape = z.strictObject(
  {
    foreground: colour("foreground").optional(),
    background: colour("background").optional(),
    error_correction: z
      .enum(["L", "M", "Q", "H"], { error: "style.error_correction must be one of L, M, Q, H" })
      .optional(),
    margin: z
      .number({ error: "style.margin must be an integer from 0 to 16" })
      .int("style.margin must be an integer from 0 to 16")
      .min(0, "style.margin must be an integer from 0 to 16")
      .max(16, "style.margin must be an integer from 0 to 16")
      .optional(),
    module_shape: z
      .enum(MODULE_SHAPES, { error: `style.module_shape must be one of ${MODULE_SHAPES.join(", ")}` })
      .optional(),
    finder_shape: z
      .enum(FINDER_SHAPES, { error: `style.finder_shape must be one of ${FINDER_SHAPES.join(", ")}` })
      .optional(),
    finder_color: colour("finder_color").optional(),
    logo: z
      .string({ error: "style.logo must be a data URL string" })
      .max(MAX_LOGO_BYTES, "style.logo must be at most 64 KiB")
      .superRefine((value, ctx) => {
        const problem = logoProblem(value);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .optional(),
    logo_size: z
      .number({ error: logoSizeProblem })
      .int(logoSizeProblem)
      .min(LOGO_SIZE.min, logoSizeProblem)
      .max(LOGO_SIZE.max, logoSizeProblem)
      .optional(),
    frame: z
      .strictObject(
        {
          text: z
            .string({ error: frameTextProblem })
            // Split into characters only when short enough to pass (two UTF-16 units a character at most).
            .refine(
              (text) =>
                text.length <= FRAME_TEXT_MAX * 2 &&
                [...text].length >= 1 &&
                [...text].length <= FRAME_TEXT_MAX &&
                !CONTROL.test(text),
              { message: frameTextProblem, abort: true },
            )
            // After the length: at most 24 characters reach the fonts' tables.
            .superRefine((text, ctx) => {
              const missing = undrawableCharacters(text);
              if (missing.length > 0)
                ctx.addIssue({
                  code: "custom",
                  message: `style.frame.text has characters no font can draw: ${missing.map(codePointName).join(", ")}`,
                });
            }),
          color: colour("frame.color"),
        },
        { error: 'style.frame must be an object {"text": ..., "color": "#rrggbb"}' },
      )
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `style has an unknown field: ${(issue as { keys: string[] }).keys.join(", ")}`
        : "style must be an object",
  },
);

export const styleField = styleShape
  // The reasons found without drawing (colours, logo share, quiet zone); the decode check follows in the domain.
  // (The 4 KiB of the rest of the style cannot be reached: every key is bounded, docs/IMAGES.md.)
  .superRefine((style, ctx) => {
    const reason = cheapUnreadableReason(style);
    if (reason) ctx.addIssue({ code: "custom", message: unreadable(reason) });
  })
  // One component for requests and records: a record's style is what its create accepted.
  .meta({
    id: "Style",
    description:
      "QR styling, echoed as sent; `{}` when not sent. A style is accepted only if the code it draws decodes at 256 px " +
      "(otherwise 400 `style makes the code unreadable: <reason>`). `logo` (PNG or SVG data URL, at most 64 KiB) raises error correction to H; " +
      "`logo_size` is the share of the code's area it covers in percent (1 to 50, default 8; above 10 refused: more than error correction H restores with margin).",
    example: {
      foreground: "#000000",
      background: "#ffffff",
      error_correction: "M",
      margin: 4,
      module_shape: "rounded",
      finder_shape: "rounded",
      frame: { text: "Scan me", color: "#1a2b3c" },
    },
  });

export type Style = z.infer<typeof styleField>;
/** The style rules (qrStyle.ts) read StyleChoices: the compiler keeps it and this schema one shape, field for field. */
const styleChoicesInStep: [Required<Style>, Required<StyleChoices>] extends [Required<StyleChoices>, Required<Style>]
  ? true
  : false = true;
void styleChoicesInStep;

/** A strict body object: unknown fields are refused so that typos do not pass silently. */
export const bodyObject = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown field: ${(issue as { keys: string[] }).keys.join(", ")}`
        : "The body must be a JSON object",
  });

/**
 * An array of at most `max` items whose items are checked only up to one past it: zod checks
 * every element before the length, so 100,000 of them would each be checked (and named) first.
 * The one over `max` keeps the refusal that of an array one too long.
 */
export const boundedArray = <T extends z.ZodType>(max: number, array: z.ZodArray<T>) =>
  z.preprocess((value) => (Array.isArray(value) && value.length > max + 1 ? value.slice(0, max + 1) : value), array);

/** The most items a batch create holds (on /v1 and in the pages' pasted lines). */
export const MAX_BATCH = 50;

export const batchArray = <T extends z.ZodType>(field: string, item: T) =>
  boundedArray(
    MAX_BATCH,
    z
      .array(item, { error: required(field, "an array of objects") })
      .min(1, `${field} must hold at least 1 item`)
      .max(MAX_BATCH, `A batch holds at most ${MAX_BATCH} items`),
  );

export const listQuery = z.object({
  // A query string's "20" is read as a number here, in the query's own schema: decimal digits
  // only ("0x10", "1e1" and " 5" stay strings, and are refused).
  limit: z
    .preprocess(
      (v) => (typeof v === "string" && /^\d{1,4}$/.test(v) ? Number(v) : v),
      z
        .number({ error: "limit must be an integer from 1 to 100" })
        .int("limit must be an integer from 1 to 100")
        .min(1, "limit must be an integer from 1 to 100")
        .max(100, "limit must be an integer from 1 to 100")
        .meta({ description: "Page size, 1 to 100 (default 50)." }),
    )
    .optional(),
  cursor: z.string().optional().meta({ description: "The `next_cursor` of the previous page." }),
});

/** Page cursors are opaque: base64url of the last record id. */
export const encodeCursor = (id: string) => Buffer.from(id).toString("base64url");
export function decodeCursor(cursor: string | undefined, prefix: string): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, "base64url").toString();
  if (!new RegExp(`^${prefix}_[0-9a-z]{21}$`).test(id))
    throw invalid("cursor is not valid: pass the next_cursor of a previous page");
  return id;
}

/** Seconds since the epoch, of a Date or of epoch milliseconds. */
export const toSeconds = (time: Date | number) => Math.floor((typeof time === "number" ? time : time.getTime()) / 1000);
