// The largest body each call of the pages' tRPC endpoint accepts (issue 37): a body is read only
// up to its call's bound, and one above it is refused (413) before it is decoded or parsed, so a
// call whose valid input is a few KiB cannot be sent megabytes to check. Each bound is derived
// from the limits of the call's fields, at their worst as JSON: every character written as a
// `\uXXXX` escape (6 bytes), so that no valid input, however a client encodes it, is refused.
// /v1 keeps the contract's one bound (1 MiB, server/api/v1.ts). docs/API.md lists these.
import { IMPORT_BATCH_SIZE, IMPORT_CHECK_SIZE, IMPORT_STATUSES } from "../../clients/typescript/src/csv-rows";
import { MAX_PASTED_LENGTH } from "../library/libraryItems";
import { FRAME_TEXT_MAX, MAX_LOGO_BYTES } from "../images/qrStyle";
import { MAX_NAME_LENGTH } from "../library/validation";
import { MAX_SCAN_PASSWORD, MAX_TARGETS, MAX_UTM, UTM_KEYS } from "../rules/fields";
import { MAX_URL_LENGTH } from "../platform/urls";
import { MAX_DESCRIPTION_LENGTH } from "../webhooks/endpoints";
import { PRESET_NAME_MAX } from "../stylePresets/presetFields";
import { EVENT_TYPES } from "../webhooks/event-types";
import {
  MAX_EXTERNAL_ID_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
} from "../library/recordExtras";

/** No body of the pages is larger: the CSV import's check of 1,000 rows as a file has them (about 3 MB at the limits). */
export const PAGES_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A JSON string of at most `units` UTF-16 units, at its longest: each one escaped, and the quotes. */
const text = (units: number) => 6 * units + 2;
/** An object's keys, punctuation, numbers, colours and enum values (and a batch's `{"0":…}` around a call's input): none reaches this. */
const KEYS = 1024;
const URL = text(MAX_URL_LENGTH);
/** Characters, up to two units each (an emoji is one character). */
const NAME = text(2 * MAX_NAME_LENGTH);
const STYLE = KEYS + text(MAX_LOGO_BYTES) + text(2 * FRAME_TEXT_MAX);
const RULES = KEYS + MAX_TARGETS * (KEYS + URL) + URL + UTM_KEYS.length * text(MAX_UTM) + text(MAX_SCAN_PASSWORD);
/** A record's metadata and external_id (characters, two units at most for the external_id). */
const EXTRAS =
  KEYS +
  MAX_METADATA_KEYS * (text(MAX_METADATA_KEY_LENGTH) + text(MAX_METADATA_VALUE_LENGTH)) +
  text(2 * MAX_EXTERNAL_ID_LENGTH);
const WEBHOOK =
  KEYS + URL + text(MAX_DESCRIPTION_LENGTH) + EVENT_TYPES.reduce((sum, event) => sum + text(event.length) + 1, 0);
/** A CSV row at the limits of the code it makes (a link of another service's export adds its metadata and external_id). */
const IMPORT_ROW = KEYS + NAME + URL + text(Math.max(...IMPORT_STATUSES.map((s) => s.length))) + EXTRAS;

/** Whole KiB, so that the refusal states the bound exactly. */
const kib = (bytes: number) => Math.ceil(Math.min(bytes, PAGES_MAX_BODY_BYTES) / 1024) * 1024;

/** Every call not named below: ids, emails, passwords, tokens, a reason of 500 characters, up to 100 drafts reviewed at once. */
export const SMALL_BODY_BYTES = 64 * 1024;

/** The bound of each call whose input can be larger than SMALL_BODY_BYTES, by procedure path. */
export const PAGES_BODY_BOUNDS: Readonly<Record<string, number>> = {
  "library.create": kib(KEYS + NAME + URL + text(PRESET_NAME_MAX)),
  "library.createMany": kib(KEYS + text(MAX_PASTED_LENGTH)),
  "library.update": kib(KEYS + URL + NAME + STYLE + RULES + EXTRAS),
  "library.previewStyle": kib(KEYS + STYLE),
  "library.saveStyle": kib(KEYS + STYLE),
  "libraryImport.check": kib(KEYS + IMPORT_CHECK_SIZE * IMPORT_ROW),
  "libraryImport.batch": kib(KEYS + IMPORT_BATCH_SIZE * IMPORT_ROW),
  "webhooks.create": kib(KEYS + WEBHOOK),
  "webhooks.update": kib(KEYS + WEBHOOK),
  "stylePresets.create": kib(KEYS + STYLE),
  "stylePresets.update": kib(KEYS + STYLE),
};

/**
 * The bound of a request to `/api/trpc/<procedures>`: a batch (`a,b?batch=1`) sends each call's
 * input, so its bound is theirs added up, never above PAGES_MAX_BODY_BYTES.
 */
export function pagesBodyBound(procedures: string): number {
  const calls = procedures.split(",");
  return kib(calls.reduce((sum, call) => sum + (PAGES_BODY_BOUNDS[call] ?? SMALL_BODY_BYTES), 0));
}

/** "16 KiB", "4 MiB": as the refusal says it. */
export const inKib = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
