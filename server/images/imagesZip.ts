// Many QR images at once, as one ZIP: GET /v1/qrcodes/images.zip, /v1/dynqrcodes/images.zip and
// the library pages' download (/library/images.zip). Streamed: the archive is written (yazl) as
// the client reads it, each entry's image drawn only when the archive reaches it, with at most
// ZIP_RENDERS_AHEAD images drawing or waiting to be written, so memory does not grow with the
// number of codes (tests/instances/images-zip.integration.test.ts measures it).
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { ZipFile } from "yazl";
import { z } from "zod";
import { db } from "../platform/db";
import { invalid, notFound } from "../platform/errors";
import { processSingleton } from "../platform/process-singleton";
import { IMAGES_PER_KEY, renderImage } from "./renderer";
import { shortUrl } from "../library/dynamicRecords";
import { drawingProblem, imageQuery, notLiveSuffix, renderJob, type ImageQuery, type PayloadField } from "./images";
import { staticPayload, typedFieldsOfRow } from "../library/staticRecords";
import { libraryWhere, type Library } from "../library/library";
import { searchWhere } from "../library/libraryItems";
import { keysetPages } from "../library/paging";
import type { ItemKind } from "../teams/teams";
import type { Style } from "../library/validation";

/** Ids one request may name (a URL holds about this many anyway). */
export const MAX_ZIP_IDS = 1000;
/** Images drawn ahead of the entry being written: the renderer's bound of one key. */
const ZIP_RENDERS_AHEAD = IMAGES_PER_KEY;
/** Records read from the database at a time. */
const ZIP_PAGE = 100;

const ID_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;
const idsProblem = (kind: ItemKind) =>
  `ids must be a comma-separated list of at most ${MAX_ZIP_IDS} ${kind === "static" ? "qr_id" : "code"} values`;

/** The optional `ids` query parameter of the ZIP routes, as a list without repeats. */
export const zipIdsField = (kind: ItemKind) =>
  z
    .string()
    .transform((text) => [...new Set(text.split(",").map((id) => id.trim()))])
    .refine((ids) => ids.length <= MAX_ZIP_IDS && ids.every((id) => ID_SHAPE.test(id)), idsProblem(kind))
    .optional();

/** Which codes of one kind go into the ZIP: the named ones, every one (null), or none (empty list). */
export type ZipPick = { ids: string[] | null; where?: object };
export type ZipSelection = Partial<Record<ItemKind, ZipPick>>;

type ZipItem = {
  kind: ItemKind;
  id: string;
  name: string;
  text: string;
  field: PayloadField;
  style: Style;
  status?: string;
};

const notFoundMessage = (kind: ItemKind, id: string) =>
  `${kind === "static" ? "QR code" : "Dynamic QR code"} not found: ${id}`;

/** The library's records of one kind that the pick names, oldest first, a page at a time. */
function recordPages(library: Library, kind: ItemKind, pick: ZipPick): AsyncGenerator<ZipItem[]> {
  const named = pick.ids === null ? {} : kind === "static" ? { id: { in: pick.ids } } : { code: { in: pick.ids } };
  const where = (after: string | undefined) => ({
    AND: [
      libraryWhere(library),
      pick.where ?? {},
      named,
      kind === "dynamic" ? { deletedAt: null } : {},
      after ? { id: { gt: after } } : {},
    ],
  });
  if (kind === "static") {
    return (async function* () {
      const pages = keysetPages(
        (after, take) =>
          db.staticCode.findMany({
            where: where(after) as never,
            orderBy: { id: "asc" },
            take,
            select: { id: true, name: true, type: true, url: true, content: true, style: true },
          }),
        ZIP_PAGE,
      );
      for await (const rows of pages)
        yield rows.map((r) => ({
          kind,
          id: r.id,
          name: r.name,
          text: staticPayload(typedFieldsOfRow(r)),
          field: r.type === "url" ? ("url" as const) : ("content" as const),
          style: JSON.parse(r.style) as Style,
        }));
    })();
  }
  return (async function* () {
    const pages = keysetPages(
      (after, take) =>
        db.dynamicCode.findMany({
          where: where(after) as never,
          orderBy: { id: "asc" },
          take,
          select: { id: true, code: true, domain: true, name: true, style: true, status: true },
        }),
      ZIP_PAGE,
    );
    for await (const rows of pages)
      yield rows.map((r) => ({
        kind,
        id: r.code,
        name: r.name,
        text: shortUrl(r.code, r.domain),
        field: "short_url" as const,
        style: JSON.parse(r.style) as Style,
        status: r.status,
      }));
  })();
}

/** Every named id must be a live record of the library, checked before a byte is sent. */
async function checkNamed(library: Library, kind: ItemKind, ids: string[]): Promise<void> {
  const found = new Set<string>();
  for await (const page of recordPages(library, kind, { ids })) for (const item of page) found.add(item.id);
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(notFoundMessage(kind, missing));
}

/** `Lunch menü (2)` → `lunch-menu-2`: an ASCII file name part, at most 60 characters. */
export function slugOf(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 60)
    .replace(/^-+|-+$/g, "");
}

/** An entry's name: the code (a static code's qr_id) and its name, unique since the code is; a draft's or paused code's says it is not live. */
export const entryName = (item: { id: string; name: string; status?: string }, format: string) => {
  const slug = slugOf(item.name);
  return `${item.id}${slug ? `-${slug}` : ""}${notLiveSuffix(item.status)}.${format}`;
};

// The ZIPs of one key are made one after another (each draws at most ZIP_RENDERS_AHEAD images
// at once), so several at once neither escape the renderer's bound nor run into its 429.
const zipQueues = processSingleton("images.zipQueues", () => new Map<string, Promise<void>>());

async function takeTurn(key: string): Promise<() => void> {
  const before = zipQueues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = before.then(() => mine);
  zipQueues.set(key, tail);
  await before;
  return () => {
    release();
    if (zipQueues.get(key) === tail) zipQueues.delete(key);
  };
}

type Queued = { item: ZipItem; image: Promise<Uint8Array | string> | null };

/** The archive's bytes as the client reads them. */
async function* zipChunks(
  key: string,
  library: Library,
  selection: ZipSelection,
  query: ImageQuery,
): AsyncGenerator<Uint8Array> {
  const release = await takeTurn(key);
  // A key of its own for this ZIP's drawings, so the single image routes of the key are not refused meanwhile.
  const drawKey = `zip:${key}:${randomUUID()}`;
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const queue: Queued[] = [];
  const skipped: string[] = [];
  let closed = false;
  let wake: (() => void) | null = null;
  const wakeProducer = () => {
    wake?.();
    wake = null;
  };
  let drawing = 0;
  const draw = (q: Queued) => {
    if (q.image) return q.image;
    drawing++;
    q.image = renderImage(drawKey, renderJob(q.item.text, q.item.style, query)).finally(() => {
      drawing--;
      startAhead();
    });
    // Drawn ahead and never written (the client left): not an unhandled rejection.
    q.image.catch(() => undefined);
    return q.image;
  };
  // The next entries' images, at most ZIP_RENDERS_AHEAD drawing at once (the one being written included).
  const startAhead = () => {
    for (const q of queue) {
      if (drawing >= ZIP_RENDERS_AHEAD) return;
      if (!q.image) draw(q);
    }
  };
  // The archive asks for an entry's bytes when it reaches it; only then is the next one queued.
  const add = (item: ZipItem) => {
    const queued: Queued = { item, image: null };
    queue.push(queued);
    // PNGs are compressed already; SVGs shrink several times over.
    zip.addReadStreamLazy(entryName(item, query.format), { compress: query.format === "svg" }, (done) => {
      queue.shift();
      wakeProducer();
      draw(queued).then(
        (image) =>
          done(
            null,
            Readable.from([
              typeof image === "string"
                ? Buffer.from(image)
                : Buffer.from(image.buffer, image.byteOffset, image.byteLength),
            ]),
          ),
        (error: unknown) => output.destroy(error as Error),
      );
    });
    startAhead();
  };
  const produce = async () => {
    for (const kind of ["static", "dynamic"] as const) {
      const pick = selection[kind];
      if (!pick || pick.ids?.length === 0) continue;
      for await (const page of recordPages(library, kind, pick)) {
        for (const item of page) {
          while (!closed && queue.length > ZIP_RENDERS_AHEAD) await new Promise<void>((resolve) => (wake = resolve));
          if (closed) return;
          // A record that cannot be drawn is listed, not a broken archive.
          const problem = drawingProblem(item.field, item.text, item.style);
          if (problem) skipped.push(`${item.id} (${item.name}): ${problem}`);
          else add(item);
        }
      }
    }
    if (skipped.length > 0)
      zip.addBuffer(Buffer.from(`Codes left out of this archive:\n${skipped.join("\n")}\n`), "skipped.txt");
    zip.end();
  };
  produce().catch((error: unknown) => output.destroy(error as Error));
  try {
    for await (const chunk of output as AsyncIterable<Buffer>) yield chunk;
  } finally {
    closed = true;
    wakeProducer();
    output.destroy();
    release();
  }
}

export type ImagesZip = { filename: string; chunks: AsyncIterable<Uint8Array> };

/**
 * The ZIP of the selected codes' images in one format and size. Named ids are checked first:
 * one that is not a live record of the library is a 404 and nothing is sent. `key` (an API
 * key's id, or a user's) has its ZIPs made one at a time.
 */
export async function imagesZip(
  key: string,
  library: Library,
  selection: ZipSelection,
  query: ImageQuery,
  stem: string,
): Promise<ImagesZip> {
  for (const kind of ["static", "dynamic"] as const) {
    const ids = selection[kind]?.ids;
    if (ids && ids.length > 0) await checkNamed(library, kind, ids);
  }
  return {
    filename: `${stem}-${query.format}-${new Date().toISOString().slice(0, 10)}.zip`,
    chunks: zipChunks(key, library, selection, query),
  };
}

/** The library pages' choice: codes ticked one by one (`static`, `dynamic`), or every code of a search (`all=1`, `search`). */
const pageZipQuery = z.intersection(
  imageQuery,
  z.object({
    static: zipIdsField("static"),
    dynamic: zipIdsField("dynamic"),
    all: z.literal("1").optional(),
    search: z.string().max(200).optional(),
  }),
);

/** The ZIP of the library pages (/library, the team library on /business), from the page's query string. */
export async function libraryImagesZip(
  key: string,
  library: Library,
  params: Record<string, string>,
): Promise<ImagesZip> {
  const { static: statics, dynamic: dynamics, all, search, ...query } = pageZipQuery.parse(params);
  const stem = library.kind === "team" ? "team-library" : "library";
  if (all) {
    const matching = await searchWhere(library, search?.trim() ?? "");
    return imagesZip(
      key,
      library,
      { static: { ids: null, where: matching.statics }, dynamic: { ids: null, where: matching.dynamics } },
      query,
      stem,
    );
  }
  if (!statics?.length && !dynamics?.length) throw invalid("Select at least one code");
  return imagesZip(key, library, { static: { ids: statics ?? [] }, dynamic: { ids: dynamics ?? [] } }, query, stem);
}
