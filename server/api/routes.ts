// The /v1 route table: every route once, with what serves it. The dispatcher (server/api/v1.ts)
// matches requests against it and the OpenAPI document (server/api/openapi.ts) is built from
// it. A procedure's route is its OpenAPI meta (trpc-to-openapi documents it from there); the
// routes whose body is not JSON (CSV exports, images) are written here, documented from the
// same constants the domain uses.
import type { AnyTRPCProcedure } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { z } from "zod";
import { rangeQuery } from "../analytics/dateRange";
import { SCAN_EXPORT_COLUMNS_LOCAL, scanExport } from "../analytics/scanEvents";
import type { Principal } from "../keys/apiKeys";
import { DYNAMIC_EXPORT_COLUMNS } from "../library/dynamicExport";
import { CODE_MAX_LENGTH, CODE_PATTERN } from "../library/backHalf";
import { imageQuery, qrImage } from "../images/images";
import { imagesZip, MAX_ZIP_IDS, zipIdsField } from "../images/imagesZip";
import { IMAGES_PER_KEY } from "../images/renderer";
import { DEFAULT_SIZE, IMAGE_FORMATS, MAX_SIZE, MIN_SIZE, SIZE_MM } from "../images/qrStyle";
import { STATIC_EXPORT_COLUMNS } from "../library/staticCodes";
import { csvAnswer, imageAnswer, zipAnswer, type Answer } from "../http/answer";
import type { RawBody } from "../http/body";
import { libraryExportAnswer } from "../http/exports";
import { BUNDLE_EXPORT_DOC, BUNDLE_IMPORT_DOC, bundleExportAnswer, bundleImportAnswer } from "../http/bundle";
import { v1Router } from "./root";
import type { V1RouteMeta } from "./trpc";

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

type Matching = {
  method: Method;
  /** With `{name}` parameters, as in the OpenAPI document. */
  path: string;
  pattern: RegExp;
  params: string[];
  /** No parameter: a literal route such as `/qrcodes/batch` wins over `/qrcodes/{qr_id}`. */
  literal: boolean;
  /** The query parameters the route takes: any other is refused (400 `Unknown query parameter: <name>`). */
  queryNames: ReadonlySet<string>;
};

export type ProcedureRoute = Matching & {
  kind: "procedure";
  procedure: AnyTRPCProcedure;
  /** The procedure's path in the router (`qrcodes.list`), which tRPC passes to its middleware. */
  name: string;
  cachedByLibraryVersion: boolean;
  /** A POST that takes nothing but its path: any body is ignored. */
  noBody: boolean;
  /** 201 for the create routes, 202 for work accepted to be done later, else 200: the dispatcher answers it, the document says it. */
  successStatus: 200 | 201 | 202;
  /** Also answers 202, with the same body, when the change waits for an admin's review (a writer's PATCH of a published team code). */
  acceptedWhenHeld: boolean;
  /** Takes If-Unmodified-Since (412 when the record changed after it). */
  unmodifiedSince: boolean;
};

/** What the document says of a route served without a procedure. */
type RawDoc = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: object[];
  ok: { description: string; content: object };
  /** A body that is not JSON (the bundle's NDJSON), streamed to the route as it arrives. */
  requestBody?: object;
};

export type RawRoute = Matching & {
  kind: "raw";
  doc: RawDoc;
  /** The query string (strings; repeated names as arrays) is checked by the route's schema first. */
  answer: (
    principal: Principal,
    params: Record<string, string>,
    query: Record<string, unknown>,
    body: RawBody,
  ) => Promise<Answer>;
};

export type V1Route = ProcedureRoute | RawRoute;

function matching(method: Method, path: string, queryNames: Iterable<string>): Matching {
  const params: string[] = [];
  const source = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    params.push(name);
    return "([^/]+)";
  });
  return {
    method,
    path,
    pattern: new RegExp(`^${source}$`),
    params,
    literal: params.length === 0,
    queryNames: new Set([...queryNames].filter((name) => !params.includes(name))),
  };
}

type V1Meta = OpenApiMeta & V1RouteMeta;

const isProcedure = (value: unknown): value is AnyTRPCProcedure =>
  typeof value === "function" && (value as AnyTRPCProcedure)._def?.procedure === true;

/** The procedures of a router's record by their dotted path (`qrcodes.list`). */
function proceduresOf(record: object, prefix = ""): [string, AnyTRPCProcedure][] {
  return Object.entries(record).flatMap(([key, value]) =>
    isProcedure(value)
      ? [[`${prefix}${key}`, value] as [string, AnyTRPCProcedure]]
      : proceduresOf(value as object, `${prefix}${key}.`),
  );
}

/** Every procedure of the /v1 router is a route: its meta says which. */
function procedureRoutes(): ProcedureRoute[] {
  return proceduresOf(v1Router._def.record).map(([name, procedure]) => {
    const meta = procedure._def.meta as V1Meta;
    if (!meta.openapi) throw new Error(`/v1 procedure ${name} has no route (openapi meta)`);
    // A procedure without a JSON body takes its input from the query string (as the document says).
    const fromQuery = meta.openapi.method === "GET" || meta.openapi.method === "DELETE" || meta.noBody;
    const shape = (procedure._def as { inputs: { shape?: object }[] }).inputs[0]?.shape ?? {};
    return {
      ...matching(meta.openapi.method as Method, meta.openapi.path, fromQuery ? Object.keys(shape) : []),
      kind: "procedure",
      procedure,
      name,
      cachedByLibraryVersion: meta.cachedByLibraryVersion ?? false,
      noBody: meta.noBody ?? false,
      successStatus: meta.created ? 201 : meta.accepted ? 202 : 200,
      acceptedWhenHeld: meta.acceptedWhenHeld ?? false,
      unmodifiedSince: meta.unmodifiedSince ?? false,
    };
  });
}

function rawRoute<Q extends z.ZodType<Record<string, unknown>>>(
  path: string,
  doc: RawDoc,
  query: Q,
  answer: (principal: Principal, params: Record<string, string>, query: z.infer<Q>, body: RawBody) => Promise<Answer>,
  method: Method = "GET",
): RawRoute {
  const queryNames = doc.parameters.flatMap((p) =>
    (p as { in: string }).in === "query" ? [(p as { name: string }).name] : [],
  );
  return {
    ...matching(method, path, queryNames),
    kind: "raw",
    doc,
    answer: async (principal, params, raw, body) => answer(principal, params, query.parse(raw), body),
  };
}

const pathParameter = (name: string) => ({
  name,
  in: "path",
  required: true,
  schema: name === "code" ? { type: "string", pattern: CODE_PATTERN, maxLength: CODE_MAX_LENGTH } : { type: "string" },
});
const csvDoc = (
  operationId: string,
  summary: string,
  tags: string[],
  columns: readonly string[],
  parameters: object[] = [],
): RawDoc => ({
  operationId,
  summary,
  description: `${summary}, oldest first, streamed (UTF-8, RFC 4180; cells a spreadsheet would run as a formula start with a quote).`,
  tags,
  parameters,
  ok: { description: `CSV, columns ${columns.join(",")}`, content: { "text/csv": { schema: { type: "string" } } } },
});
const imageParameters = [
  {
    name: "format",
    in: "query",
    required: false,
    schema: { type: "string", enum: [...IMAGE_FORMATS], default: "svg" },
  },
  {
    name: "size",
    in: "query",
    required: false,
    schema: { type: "integer", minimum: MIN_SIZE, maximum: MAX_SIZE, default: DEFAULT_SIZE },
    description: "Width in pixels (SVG, PNG; a frame makes the image taller). A PDF ignores it.",
  },
  {
    name: "size_mm",
    in: "query",
    required: false,
    schema: { type: "integer", minimum: SIZE_MM.min, maximum: SIZE_MM.max, default: SIZE_MM.default },
    description: "The PDF's width in millimetres (the code with its quiet zone and frame); only with format=pdf.",
  },
];
const imageDoc = (operationId: string, summary: string, idName: string, tags: string[]): RawDoc => ({
  operationId,
  summary,
  description: `${summary}, as SVG, PNG or vector PDF, drawn with the record's style. At most ${IMAGES_PER_KEY} PNGs or PDFs of one key are drawn at once: more is answered 429 with Retry-After.`,
  tags,
  parameters: [pathParameter(idName), ...imageParameters],
  ok: {
    description: "The QR image, drawn with the record's style",
    content: {
      "image/svg+xml": { schema: { type: "string" } },
      "image/png": { schema: { type: "string", format: "binary" } },
      "application/pdf": { schema: { type: "string", format: "binary" } },
    },
  },
});
const zipDoc = (operationId: string, summary: string, idName: string, tags: string[]): RawDoc => ({
  operationId,
  summary,
  description:
    `${summary}, one image per code (drawn as by the image route, with each record's style), named \`<${idName}>-<name>.<format>\`. ` +
    `Streamed as it is drawn. Without \`ids\`, every code of the library; an id that is not a code of the library is 404 and nothing is sent.`,
  tags,
  parameters: [
    ...imageParameters,
    {
      name: "ids",
      in: "query",
      required: false,
      schema: { type: "string" },
      description: `Comma-separated ${idName} values, at most ${MAX_ZIP_IDS}`,
    },
  ],
  ok: {
    description: "A ZIP archive of QR images",
    content: { "application/zip": { schema: { type: "string", format: "binary" } } },
  },
});
const zipQuery = (kind: "static" | "dynamic") => z.intersection(imageQuery, z.object({ ids: zipIdsField(kind) }));
const dayParameter = (name: "from" | "to") => ({
  name,
  in: "query",
  required: false,
  schema: { type: "string", format: "date" },
  description: rangeQuery.shape[name].unwrap().description,
});

const zoneParameter = {
  name: "tz",
  in: "query",
  required: false,
  schema: { type: "string", example: "Europe/Berlin" },
  description: `${rangeQuery.shape.tz.unwrap().description} With it, the export adds \`scanned_at_local\` (ISO 8601 with the zone's offset) after \`scanned_at\`, which stays UTC.`,
};

const STATIC = ["Static QR codes"];
const DYNAMIC = ["Dynamic QR codes"];
const noQuery = rangeQuery.pick({});

export const V1_ROUTES: V1Route[] = [
  ...procedureRoutes(),
  rawRoute("/bundle", BUNDLE_EXPORT_DOC, noQuery, async (p) => bundleExportAnswer(p)),
  rawRoute("/bundle", BUNDLE_IMPORT_DOC, noQuery, async (p, _, __, body) => bundleImportAnswer(p, body), "POST"),
  rawRoute(
    "/qrcodes/export",
    csvDoc("qrcodes-export", "Export every static QR code of the library as CSV", STATIC, STATIC_EXPORT_COLUMNS),
    noQuery,
    async (p) => libraryExportAnswer("qrcodes", p.library),
  ),
  rawRoute(
    "/dynqrcodes/export",
    csvDoc("dynqrcodes-export", "Export every dynamic QR code of the library as CSV", DYNAMIC, DYNAMIC_EXPORT_COLUMNS),
    noQuery,
    async (p) => libraryExportAnswer("dynqrcodes", p.library),
  ),
  rawRoute(
    "/dynqrcodes/{code}/analytics/export",
    csvDoc(
      "dynqrcodes-analyticsExport",
      "Export one code's scan events in a range of days as CSV",
      DYNAMIC,
      SCAN_EXPORT_COLUMNS_LOCAL,
      [pathParameter("code"), dayParameter("from"), dayParameter("to"), zoneParameter],
    ),
    rangeQuery,
    async (p, params, query) => {
      const { stem, columns, pages } = await scanExport(p.library, params.code, query);
      return csvAnswer(stem, columns, pages);
    },
  ),
  rawRoute(
    "/qrcodes/images.zip",
    zipDoc("qrcodes-imagesZip", "The QR images of static codes as one ZIP", "qr_id", STATIC),
    zipQuery("static"),
    async (p, _, { ids, ...query }) =>
      zipAnswer(await imagesZip(`api:${p.apiKeyId}`, p.library, { static: { ids: ids ?? null } }, query, "qrcodes")),
  ),
  rawRoute(
    "/dynqrcodes/images.zip",
    zipDoc("dynqrcodes-imagesZip", "The QR images of dynamic codes as one ZIP", "code", DYNAMIC),
    zipQuery("dynamic"),
    async (p, _, { ids, ...query }) =>
      zipAnswer(
        await imagesZip(`api:${p.apiKeyId}`, p.library, { dynamic: { ids: ids ?? null } }, query, "dynqrcodes"),
      ),
  ),
  rawRoute(
    "/qrcodes/{qr_id}/image",
    imageDoc("qrcodes-image", "The QR image of a static code's url", "qr_id", STATIC),
    imageQuery,
    async (p, params, query) =>
      imageAnswer(await qrImage(`api:${p.apiKeyId}`, p.library, "static", params.qr_id, query)),
  ),
  rawRoute(
    "/dynqrcodes/{code}/image",
    imageDoc("dynqrcodes-image", "The QR image of a dynamic code's short_url", "code", DYNAMIC),
    imageQuery,
    async (p, params, query) =>
      imageAnswer(await qrImage(`api:${p.apiKeyId}`, p.library, "dynamic", params.code, query)),
  ),
];

/**
 * Routes whose path matches. A literal segment ("batch", "export") is a fixed word: where a
 * literal route matches the path, parameter routes are not considered.
 */
export function routesFor(path: string): V1Route[] {
  const matches = V1_ROUTES.filter((r) => r.pattern.test(path));
  return matches.some((r) => r.literal) ? matches.filter((r) => r.literal) : matches;
}

/** The one spelling of a /v1 path: `/v1` in lower case, no trailing slash. */
export const canonicalPath = (pathname: string) => `/v1${pathname.slice("/v1".length).replace(/\/+$/, "")}`;
