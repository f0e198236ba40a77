// The pages' changes to a library's items (/library, the team library on /business): create one
// or many from pasted lines, update, remove, and the style editor's check, preview and save.
// Each goes through the same domain functions as /v1, as the reads of libraryItems.ts do.
import { z } from "zod";
import { db } from "../platform/db";
import { DomainError, fromZodIssues, invalid, notFound, type BatchItemError } from "../platform/errors";
import { createDynamicCodes, deleteDynamicCode } from "./dynamicCodes";
import { updateDynamicCode } from "./dynamicUpdate";
import { updateStaticCode } from "./staticUpdate";
import { dynamicBatchInput, shortUrl, dynamicPatchInput } from "./dynamicRecords";
import { libraryWhere, type Actor } from "./library";
import { createStaticCodes, deleteStaticCode } from "./staticCodes";
import { staticBatchInput, staticPayload, typedFieldsOfRow, type StaticCodeInput } from "./staticRecords";
import { parseLines } from "./pastedLines";
import { capacityProblem } from "../images/qrImage";
import { renderImage } from "../images/renderer";
import { resolvedStyle } from "../images/qrStyle";
import { refuseUnreadableStyles } from "../images/readableStyles";
import type { LastSeen } from "./staleSave";
import type { ItemKind } from "../teams/teams";
import { MAX_BATCH, servedShortLinkIssues, styleField, styleShape, type Style } from "./validation";
import { requireEditor, itemDestinations } from "./libraryItems";

/** An item of the pages' create form (pasted lines give name and url only). */
type PageItem = {
  name: string;
  url?: string;
  code?: string;
  type?: string;
  content?: unknown;
  domain?: string;
  /** A brand kit of the library, copied into the code (docs/STYLE-PRESETS.md). */
  style_preset?: string;
};

/**
 * Creates every item or none, through the API's batch path (the callers check the editor). `reportedIndex` turns an item's
 * place in the batch into the index its error names (a pasted line's number minus one).
 */
async function createItems(
  actor: Actor,
  kind: ItemKind,
  items: PageItem[],
  reportedIndex: (i: number) => number,
  /** Problems found before (pasted lines that are not `name, url`), reported with the items' own. */
  earlier: BatchItemError[] = [],
): Promise<number> {
  const batch =
    kind === "static"
      ? staticBatchInput.safeParse({
          qrcodes: items.map((i) => ({
            ...(i.type === undefined
              ? { name: i.name, url: i.url }
              : { name: i.name, type: i.type, content: i.content }),
            style_preset: i.style_preset,
          })),
        })
      : dynamicBatchInput.safeParse({
          dynqrcodes: items.map((i) =>
            i.type === undefined
              ? { name: i.name, destination_url: i.url, code: i.code, domain: i.domain, style_preset: i.style_preset }
              : {
                  name: i.name,
                  type: i.type,
                  content: i.content,
                  code: i.code,
                  domain: i.domain,
                  style_preset: i.style_preset,
                },
          ),
        });
  // With the destinations on a /q/ of a host the request reached: every bad line at once (the
  // create functions check those again, as they do for /v1).
  const issues = [
    ...servedShortLinkIssues(
      actor.servedHosts,
      items.flatMap((item, i) => itemDestinations(kind, item.url ?? "", i)),
    ),
    ...(batch.success ? [] : batch.error.issues),
  ];
  if (issues.length > 0) {
    const error = fromZodIssues(issues);
    if (!error.items) throw earlier.length > 0 ? new DomainError("invalid", "Some lines are invalid", earlier) : error;
    const all = [...earlier, ...error.items.map((e) => ({ index: reportedIndex(e.index), error: e.error }))].sort(
      (a, b) => a.index - b.index,
    );
    throw new DomainError("invalid", "Some items are invalid", all);
  }
  if (earlier.length > 0) throw new DomainError("invalid", "Some lines are invalid", earlier);
  const data = batch.data as {
    qrcodes?: StaticCodeInput[];
    dynqrcodes?: { name: string; destination_url: string; code?: string; style_preset?: string }[];
  };
  const created =
    kind === "static"
      ? await createStaticCodes(actor, data.qrcodes!)
      : await createDynamicCodes(actor, data.dynqrcodes!);
  return created.length;
}

/** One item from the page's form; its error is one message. */
export async function createItem(actor: Actor, kind: ItemKind, item: PageItem): Promise<void> {
  requireEditor(actor);
  if (kind === "static" && item.code !== undefined) throw invalid("code is only for dynamic codes");
  if (kind === "static" && item.domain !== undefined) throw invalid("domain is only for dynamic codes");
  try {
    await createItems(actor, kind, [item], (i) => i);
  } catch (error) {
    if (error instanceof DomainError && error.items) throw invalid(error.items[0].error);
    throw error;
  }
}

/** Pasted lines, all created or none; errors name the lines. */
export async function createFromLines(actor: Actor, kind: ItemKind, text: string): Promise<number> {
  requireEditor(actor);
  const { items, problems } = parseLines(text);
  if (items.length === 0 && problems.length === 0) throw invalid("Write at least one line: name, https://…");
  // Refused before any line is checked (the batch's own rule and words).
  if (items.length > MAX_BATCH) throw invalid(`A batch holds at most ${MAX_BATCH} items`);
  // Every bad line at once: those that are not `name, url` and those whose name or URL is refused.
  return createItems(actor, kind, items, (i) => items[i].line - 1, problems);
}

export async function updateItem(actor: Actor, input: z.infer<typeof dynamicPatchInput>, lastSeen?: LastSeen) {
  requireEditor(actor);
  return updateDynamicCode(actor, input, lastSeen);
}

export async function removeItem(actor: Actor, kind: ItemKind, id: string) {
  requireEditor(actor);
  return kind === "static" ? deleteStaticCode(actor, id) : deleteDynamicCode(actor, id);
}

/** Where an item's image points, or a 404: a static code's URL, a dynamic code's short URL. */
async function encodedTextOf(actor: Actor, kind: ItemKind, id: string): Promise<string> {
  const where = libraryWhere(actor.library);
  if (kind === "static") {
    const record = await db.staticCode.findFirst({
      where: { id, ...where },
      select: { type: true, url: true, content: true },
    });
    if (!record) throw notFound("QR code not found");
    return staticPayload(typedFieldsOfRow(record));
  }
  const record = await db.dynamicCode.findFirst({
    where: { code: id, ...where, deletedAt: null },
    select: { code: true, domain: true },
  });
  if (!record) throw notFound("Dynamic QR code not found");
  return shortUrl(record.code, record.domain);
}

/** The API's style rules, thrown as its input error. */
function styleOf(input: unknown): Style {
  const parsed = styleField.safeParse(input);
  if (!parsed.success) throw fromZodIssues(parsed.error.issues);
  return parsed.data;
}

/** The style's rules and the decode check, for the editor's "This design scans" (nothing stored). */
async function checkItemStyle(actor: Actor, kind: ItemKind, id: string, input: unknown): Promise<Style> {
  const style = styleOf(input);
  const text = await encodedTextOf(actor, kind, id);
  // A higher error-correction level holds fewer bytes: the URL must still fit.
  const problem = kind === "static" && capacityProblem(text, resolvedStyle(style).error_correction);
  if (problem) throw invalid(`The url ${problem}: choose a lower error correction`);
  await refuseUnreadableStyles([{ text, style }]);
  return style;
}

/**
 * The editor's preview and check of a style not saved yet: the image drawn by the same
 * renderer, and why it would be refused (null: "This design scans"). An invalid style
 * (unknown key, unsafe logo) is not drawn at all.
 */
export async function previewItemStyle(
  actor: Actor,
  kind: ItemKind,
  id: string,
  input: unknown,
): Promise<{ svg: string | null; problem: string | null }> {
  const text = await encodedTextOf(actor, kind, id);
  // A well-formed style is drawn even when it would not scan (with its reason); an unsafe logo never is.
  const shape = styleShape.safeParse(input);
  // Drawn as the image routes draw (a long URL's SVG off the event loop), counted against the user's bound.
  const svg = shape.success
    ? await renderImage(`preview:${actor.userId}`, { text, style: shape.data, size: PREVIEW_SIZE, format: "svg" })
        .then(String)
        .catch(() => null)
    : null;
  try {
    await checkItemStyle(actor, kind, id, input);
    return { svg, problem: null };
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "invalid") throw error;
    return { svg, problem: error.message };
  }
}
const PREVIEW_SIZE = 192;

/**
 * The style editor's save: the API's style rules and the same decode check, refused when the
 * record changed since the editor opened (`lastSeen`). A dynamic code's style is part of its
 * record, so it is saved as a PATCH of it: activity and dynqrcode.updated in one transaction.
 */
export async function saveStyle(
  actor: Actor,
  kind: ItemKind,
  id: string,
  input: unknown,
  lastSeen?: LastSeen,
): Promise<Style> {
  requireEditor(actor);
  if (kind === "dynamic")
    return (await updateDynamicCode(actor, { code: id, style: styleOf(input) }, lastSeen)).record.style;
  // A static code's style is part of its record: changed as its PATCH changes it (qrcode.updated).
  return (await updateStaticCode(actor, { qr_id: id, style: styleOf(input) }, lastSeen)).style;
}
