// The OpenAPI 3.1 document of /v1, built from the route table (server/api/routes.ts): the
// procedures' routes documented by trpc-to-openapi from their meta and schemas, the raw
// routes (CSV, images) from their table entries, with the x-api-key scheme and the contract's
// error bodies on every operation.
import { generateOpenApiDocument } from "trpc-to-openapi";
import { env } from "../env";
import { processSingleton } from "../process-singleton";
import { v1Router } from "./root";
import { V1_ROUTES, type RawRoute } from "./routes";

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

type Operation = { responses?: Record<string, unknown>; requestBody?: unknown };

/** The raw routes of the table, as OpenAPI path items. */
function rawPaths(): never {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of V1_ROUTES.filter((r): r is RawRoute => r.kind === "raw")) {
    const { summary, tags, parameters, ok } = route.doc;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = { summary, tags, parameters, security: [{ ApiKey: [] }], responses: { 200: ok } };
  }
  return paths as never;
}

/** Built once per process, on the first request for it. */
export const openApiDocument = () => processSingleton("v1.openapi", buildDocument);

function buildDocument() {
  // The procedures of the table are exactly those of the /v1 router (routes.ts walks it).
  const doc = generateOpenApiDocument(v1Router, {
    title: "QR Code Records API",
    version: "1.0.0",
    description: "Static and dynamic QR code records, scan analytics and CSV exports. Every route needs the x-api-key header.",
    baseUrl: `${env.appUrl}/v1`,
    securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
    paths: rawPaths(),
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
  return doc;
}
