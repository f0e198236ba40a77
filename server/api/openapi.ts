// The OpenAPI 3.1 document of /v1, built from the route table (server/api/routes.ts): the
// procedures' routes documented by trpc-to-openapi from their meta and schemas, the raw
// routes (CSV, images) from their table entries, with the x-api-key scheme and the contract's
// error bodies on every operation.
import { generateOpenApiDocument } from "trpc-to-openapi";
import { env } from "../platform/env";
import { processSingleton } from "../platform/process-singleton";
import { v1Router } from "./root";
import { withBounds } from "./openapi-bounds";
import { webhookOperations } from "./openapi-webhooks";
import { V1_ROUTES, type RawRoute } from "./routes";
import { contentComponents } from "../codeTypes/typedFields";
import { HOSTED_SCHEMAS } from "../hosted/content";
import {
  ANSWERED,
  batchErrorSchema,
  errorSchema,
  HEADERS,
  headers,
  IDEMPOTENCY_PARAMETER,
  jsonError,
  lineErrorsSchema,
  UNMODIFIED_SINCE_PARAMETER,
} from "./openapi-responses";

type Operation = {
  operationId?: string;
  description?: string;
  summary?: string;
  responses?: Record<string, unknown>;
  requestBody?: unknown;
};

/** The raw routes of the table, as OpenAPI path items. */
function rawPaths(): never {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of V1_ROUTES.filter((r): r is RawRoute => r.kind === "raw")) {
    const { operationId, summary, description, tags, parameters, ok, requestBody } = route.doc;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId,
      summary,
      description,
      tags,
      parameters,
      ...(requestBody ? { requestBody } : {}),
      security: [{ ApiKey: [] }],
      responses: { 200: ok },
    };
  }
  return paths as never;
}

/**
 * The body's example, as its input schema's meta says it, set on the request's media type: the
 * generator keeps only `examples` of a body's schema, and Swagger UI's Try it out builds the body
 * it pre-fills from this one (a create's example leaves out the unique `code` and `external_id`,
 * so that Execute twice creates two codes).
 */
function bodyExample(route: (typeof V1_ROUTES)[number], op: Operation) {
  if (route.kind !== "procedure") return;
  const input = (route.procedure._def as { inputs: { meta?: () => { example?: unknown } | undefined }[] }).inputs[0];
  const example = input?.meta?.()?.example;
  const media = (op.requestBody as { content?: Record<string, { example?: unknown }> } | undefined)?.content?.[
    "application/json"
  ];
  if (example !== undefined && media) media.example = example;
}

/** Built once per process, on the first request for it. */
export const openApiDocument = () => processSingleton("v1.openapi", buildDocument);

/**
 * The document as served from `origin`: its one server is the absolute /v1 there, so a client
 * generated from it, and "Try it out" on that origin's /docs, call the address it came from.
 */
export const documentServedAt = (origin: string) => ({
  ...openApiDocument(),
  servers: [
    {
      url: `${origin}/v1`,
      description: `The ${env.development ? "local development" : "production"} service that served this document`,
      "x-internal": false,
    },
  ],
});

const TAGS = [
  { name: "Static QR codes", description: "A fixed URL and a name: the printed code encodes the URL itself." },
  {
    name: "Dynamic QR codes",
    description: "A short link `/q/{code}` whose destination can change; every scan is recorded.",
  },
  {
    name: "Bundle",
    description: "The whole library, every code and scan, out as NDJSON and into another library or instance.",
  },
  {
    name: "Webhooks",
    description:
      "Events of the library POSTed to your endpoints, signed as Standard Webhooks, retried until delivered.",
  },
  {
    name: "Custom domains",
    description:
      "Your own domains for dynamic codes' short links (`https://<domain>/<code>`), verified by a DNS TXT record.",
  },
  {
    name: "Style presets",
    description:
      "Brand kits: named styles a create or PATCH applies with `style_preset` (copied into the code; later edits of the preset leave it as it is).",
  },
];

function buildDocument() {
  // The procedures of the table are exactly those of the /v1 router (routes.ts walks it).
  const doc = generateOpenApiDocument(v1Router, {
    title: "QR Code Records API",
    version: "1.0.0",
    description:
      "Static and dynamic QR code records, scan analytics and CSV exports. Every route needs the x-api-key header.",
    // Relative here; made absolute per request by documentServedAt.
    baseUrl: "/v1",
    securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
    paths: rawPaths(),
    // Referenced by hand from `content`, whose rules depend on `type` (server/codeTypes/typedFields.ts).
    defs: { ...contentComponents, PageContent: HOSTED_SCHEMAS.page },
  });
  doc.info = {
    ...doc.info,
    contact: { name: "QR Code Records", url: `${env.appUrl}/docs` },
    license: { name: "Proprietary", url: `${env.appUrl}/docs` },
  };
  doc.tags = TAGS;
  (doc as { webhooks?: unknown }).webhooks = webhookOperations();
  // Only our own schemas: the generator's error.* shapes ({message, code, issues}) are never sent.
  const schemas = Object.fromEntries(
    Object.entries(doc.components?.schemas ?? {}).filter(([name]) => !name.startsWith("error.")),
  );
  doc.components = {
    ...doc.components,
    schemas: {
      ...schemas,
      ApiError: errorSchema as never,
      BatchError: batchErrorSchema as never,
      LineErrors: lineErrorsSchema as never,
    },
    headers: HEADERS as never,
    parameters: { IdempotencyKey: IDEMPOTENCY_PARAMETER as never },
  };
  for (const route of V1_ROUTES) {
    const op = (doc.paths?.[route.path] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
    if (!op) continue; // the unit test of the table fails on a route missing from the document
    op.description ??= op.summary;
    bodyExample(route, op);
    const ok = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith("2"))?.[1] as
      { headers?: unknown } | undefined;
    /** Batch deletes list their refused items by index under 403 and 404 too. */
    const batchDelete = route.path.endsWith("/batch-delete");
    const success = route.kind === "procedure" ? route.successStatus : 200;
    const hasBody =
      (route.method === "POST" || route.method === "PATCH") && !(route.kind === "procedure" && route.noBody);
    const isWrite = route.method !== "GET";
    const precondition = route.kind === "procedure" && route.unmodifiedSince;
    // A batch's items are refused by index, whatever the status; codes' writes may name a taken external_id.
    const batch = (error: string) => (route.path.endsWith("/batch") ? { index: 0, error } : undefined);
    /** A refused item of a batch change or a batch delete. */
    const byIndex = (error: string) => (batchDelete ? { index: 0, error } : batch(error));
    const claimsExternalId = hasBody && /^\/(dyn)?qrcodes(\/|$)/.test(route.path);
    /** A streamed body (the bundle): its problems by line, no size limit, its own media type. */
    const streamed = route.kind === "raw" && route.doc.requestBody !== undefined;
    /** Takes an Idempotency-Key (the bundle's import is idempotent of itself). */
    const keyed = isWrite && !streamed;
    if (keyed)
      (op as { parameters?: unknown[] }).parameters = [
        ...((op as { parameters?: unknown[] }).parameters ?? []),
        { $ref: "#/components/parameters/IdempotencyKey" },
        ...(precondition ? [UNMODIFIED_SINCE_PARAMETER] : []),
      ];
    const okAnswer = {
      ...ok,
      ...headers(
        ...ANSWERED,
        ...(route.kind === "raw" && route.doc.ok.description.startsWith("CSV")
          ? (["Content-Disposition"] as const)
          : []),
        ...(keyed ? (["Idempotent-Replayed"] as const) : []),
      ),
    };
    const dynamicCreate =
      route.method === "POST" && (route.path === "/dynqrcodes" || route.path === "/dynqrcodes/batch");
    const responses: Record<string, unknown> = {
      [success]: okAnswer,
      ...(route.kind === "procedure" && route.acceptedWhenHeld
        ? {
            202: {
              ...okAnswer,
              description:
                "Held for review: a writer's change to where a published team code leads. The record, its live fields unchanged, with pending_change set.",
            },
          }
        : {}),
      400: jsonError(
        `${hasBody ? "Invalid request (a batch lists every invalid item in errors)" : "Invalid parameters"}; a query parameter the route does not list is \`Unknown query parameter: <name>\`${isWrite ? "; several Idempotency-Key headers are `Send one Idempotency-Key header, not several`" : ""}`,
        hasBody
          ? "url must be an absolute http or https URL"
          : route.path.endsWith("analytics") || route.path.endsWith("export")
            ? "from must be a date like 2026-11-21"
            : "limit must be an integer from 1 to 100",
        ANSWERED,
        streamed
          ? { line: 2, error: "not valid JSON" }
          : route.path.endsWith("/batch")
            ? { index: 1, error: "name must be 1 to 200 characters (after trimming)" }
            : batchDelete
              ? { index: 1, error: "the same id as item 0: send each once" }
              : undefined,
      ),
      401: jsonError(
        "Missing, invalid, revoked or not yet active API key (Retry-After while it is not active yet); several x-api-key headers are `Send one x-api-key header, not several`",
        "Invalid API key",
        ["X-Request-Id", "Retry-After"],
      ),
      403: jsonError(
        route.method === "DELETE"
          ? "The key's owner has no API access, or the action needs a team admin (a published team code)"
          : "The key's owner has no API access, or the action needs a team admin",
        (route.method === "DELETE" && route.path.includes("qrcodes/")) || batchDelete
          ? "Only a team admin can delete a published code"
          : "API access requires a Pro or Business plan",
        ANSWERED,
        byIndex(batchDelete ? "Only a team admin can delete a published code" : "Only a team admin can publish"),
      ),
      404: jsonError(
        "Not found in the key's library",
        route.path.startsWith("/dynqrcodes") ? "Dynamic QR code not found" : "QR code not found",
        ANSWERED,
        byIndex(route.path.startsWith("/dynqrcodes") ? "Dynamic QR code not found" : "QR code not found"),
      ),
      405: jsonError("The path does not answer this method (see Allow)", `Method not allowed: use ${route.method}`, [
        ...ANSWERED,
        "Allow",
      ]),
      ...(streamed
        ? {
            409: jsonError(
              "A code of the body is taken on this instance, or its external_id is used in the library (every such line listed): nothing was written",
              "Some lines of the bundle conflict with this instance",
              ANSWERED,
              { line: 4, error: "code summer-menu is already taken" },
            ),
          }
        : {}),
      ...(keyed
        ? {
            409: claimsExternalId
              ? jsonError(
                  dynamicCreate
                    ? "A request with this Idempotency-Key is still running, an external_id is already used in the library (`external_id already used: <value>`), or a back-half (`code`) is already in use (`Code already in use: <code>`); a batch lists each such item in errors"
                    : "A request with this Idempotency-Key is still running, or an external_id is already used in the library (`external_id already used: <value>`)",
                  dynamicCreate ? "Code already in use: summer-menu-2026" : "external_id already used: order-4711",
                  ANSWERED,
                  batch(
                    dynamicCreate ? "Code already in use: summer-menu-2026" : "external_id already used: order-4711",
                  ),
                )
              : jsonError(
                  "A request with this Idempotency-Key is still running",
                  "A request with this Idempotency-Key is in progress",
                  ANSWERED,
                ),
            422: jsonError(
              "The Idempotency-Key was used with another method, path or body",
              "Idempotency-Key was used with a different request",
              ANSWERED,
            ),
          }
        : {}),
      ...(precondition
        ? {
            412: jsonError(
              "The record changed after If-Unmodified-Since: nothing was changed",
              "The code was changed after If-Unmodified-Since: read it again, then retry",
              ANSWERED,
            ),
          }
        : {}),
      ...(hasBody && !streamed
        ? {
            413: jsonError("Body over 1 MiB", "The body must be at most 1 MiB", ANSWERED),
            415: jsonError("Content-Type is not application/json", "Content-Type must be application/json", ANSWERED),
          }
        : {}),
      ...(streamed
        ? {
            415: jsonError(
              "Content-Type is not application/x-ndjson",
              "Content-Type must be application/x-ndjson",
              ANSWERED,
            ),
          }
        : {}),
      429: jsonError("Rate limit exceeded (see Retry-After)", "Rate limit exceeded", [...ANSWERED, "Retry-After"]),
      500: jsonError("Internal error (logged with the request id)", "Internal error", ["X-Request-Id"]),
      503: jsonError(
        "The database is unavailable for a moment (see Retry-After)",
        "The database is unavailable for a moment: try again",
        ["X-Request-Id", "Retry-After"],
      ),
    };
    op.responses = responses;
  }
  withBounds(doc as never);
  return doc;
}
