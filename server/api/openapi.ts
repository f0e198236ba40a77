// The OpenAPI 3.1 document of /v1: the tRPC procedures, plus the CSV and image routes served by plain
// handlers, with the x-api-key scheme and the contract's error bodies on every operation.
import { generateOpenApiDocument } from "trpc-to-openapi";
import { env } from "../env";
import { appRouter } from "./root";

const errorSchema = {
  type: "object",
  required: ["error"],
  additionalProperties: false,
  properties: { error: { type: "string", example: "url must be an absolute http or https URL" } },
};
const batchErrorSchema = {
  type: "object",
  required: ["errors"],
  additionalProperties: false,
  properties: {
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["index", "error"],
        additionalProperties: false,
        properties: { index: { type: "integer", minimum: 0 }, error: { type: "string" } },
      },
    },
  },
};
const jsonError = (description: string, batch = false) => ({
  description,
  content: {
    "application/json": { schema: batch ? { oneOf: [{ $ref: "#/components/schemas/Error" }, { $ref: "#/components/schemas/BatchError" }] } : { $ref: "#/components/schemas/Error" } },
  },
});

/** A route served by a plain handler (its body is not JSON), documented by hand. */
const rawOperation = (summary: string, tags: string[], parameters: object[], ok: { description: string; content: object }): never =>
  ({ get: { summary, tags, parameters, security: [{ ApiKey: [] }], responses: { 200: ok } } }) as never;

const csvOperation = (summary: string, columns: string, tags: string[], parameters: object[] = []): never =>
  rawOperation(summary, tags, parameters, { description: `CSV, columns ${columns}`, content: { "text/csv": { schema: { type: "string" } } } });

const pathParameter = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const imageOperation = (summary: string, idName: string, tags: string[]): never =>
  rawOperation(
    summary,
    tags,
    [
      pathParameter(idName),
      { name: "format", in: "query", required: false, schema: { type: "string", enum: ["svg", "png"], default: "svg" } },
      { name: "size", in: "query", required: false, schema: { type: "integer", minimum: 64, maximum: 2048, default: 512 }, description: "Width and height in pixels" },
    ],
    {
      description: "The QR image, drawn with the record's style",
      content: { "image/svg+xml": { schema: { type: "string" } }, "image/png": { schema: { type: "string", format: "binary" } } },
    },
  );

type Operation = { responses?: Record<string, unknown>; requestBody?: unknown };

let cached: ReturnType<typeof generateOpenApiDocument> | undefined;

export function openApiDocument() {
  if (cached) return cached;
  const doc = generateOpenApiDocument(appRouter, {
    title: "QR Code Records API",
    version: "1.0.0",
    description: "Static and dynamic QR code records, scan analytics and CSV exports. Every route needs the x-api-key header.",
    baseUrl: `${env.appUrl}/v1`,
    securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
    paths: {
      "/qrcodes/export": csvOperation("Export every static QR code of the library as CSV", "qr_id,name,url,created_at,updated_at", ["Static QR codes"]),
      "/dynqrcodes/export": csvOperation(
        "Export every dynamic QR code of the library as CSV",
        "code,name,short_url,destination_url,status,team_id,created_at,updated_at,total_scans",
        ["Dynamic QR codes"],
      ),
      "/dynqrcodes/{code}/analytics/export": csvOperation("Export one code's scan events in a range of days as CSV", "scanned_at,country,device,os,browser,unique", ["Dynamic QR codes"], [
        pathParameter("code"),
        { name: "from", in: "query", required: false, schema: { type: "string" }, description: "First day, YYYY-MM-DD (UTC), inclusive" },
        { name: "to", in: "query", required: false, schema: { type: "string" }, description: "Last day, YYYY-MM-DD (UTC), inclusive" },
      ]),
      "/qrcodes/{qr_id}/image": imageOperation("The QR image of a static code's url", "qr_id", ["Static QR codes"]),
      "/dynqrcodes/{code}/image": imageOperation("The QR image of a dynamic code's short_url", "code", ["Dynamic QR codes"]),
    },
  });
  doc.components = {
    ...doc.components,
    schemas: { ...(doc.components?.schemas ?? {}), Error: errorSchema as never, BatchError: batchErrorSchema as never },
  };
  // Replace the library's error shapes with ours on every operation.
  for (const item of Object.values(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      const responses: Record<string, unknown> = {};
      for (const [status, response] of Object.entries(op.responses ?? {})) if (!status.startsWith("4") && !status.startsWith("5") && status !== "default") responses[status] = response;
      const hasBody = method === "post" || method === "patch" || method === "put";
      responses["400"] = jsonError(hasBody ? "Invalid request (a batch lists every invalid item in errors)" : "Invalid parameters", hasBody);
      responses["401"] = jsonError("Missing, invalid, revoked or not yet active API key");
      responses["403"] = jsonError("The key's owner has no API access, or the action needs a team admin");
      responses["404"] = jsonError("Not found in the key's library");
      if (hasBody) {
        responses["413"] = jsonError("Body over 1 MiB");
        responses["415"] = jsonError("Content-Type is not application/json");
      }
      responses["429"] = jsonError("Rate limit exceeded (see Retry-After)");
      responses["500"] = jsonError("Internal error");
      op.responses = responses;
    }
  }
  cached = doc;
  return doc;
}
