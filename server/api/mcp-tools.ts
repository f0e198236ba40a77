// The MCP server's tools (contract: "For agents: an MCP server"): one per /v1 route of the route
// table (server/api/routes.ts), named by its operationId, whose input schema is the operation's
// parameters (path, query and header, by their names) and its JSON body's properties merged into
// one object schema, all read from the OpenAPI document made from the same table. No list is
// written by hand: a route added to the table is a tool.
import { processSingleton } from "../platform/process-singleton";
import { openApiDocument } from "./openapi";
import { V1_ROUTES, type V1Route } from "./routes";

type Schema = Record<string, unknown>;
type Parameter = {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  description?: string;
  schema?: Schema;
};
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content?: { "application/json"?: { schema?: Schema } } };
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, Schema>; parameters?: Record<string, Parameter> };
};

/** Where each argument of a tool goes in its /v1 request. */
export type McpTool = {
  name: string;
  description: string;
  inputSchema: Schema & { type: "object" };
  route: V1Route;
  pathNames: string[];
  queryNames: string[];
  headerNames: string[];
  /** Sends a JSON body (the other arguments), as the route's POST or PATCH takes. */
  jsonBody: boolean;
};

const SCHEMAS = "#/components/schemas/";

/** `schema` with its references pointing into the tool's own `$defs`, and the names it refers to. */
function localized(schema: unknown, refs: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => localized(s, refs));
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === "$ref" && typeof value === "string" && value.startsWith(SCHEMAS)) {
        refs.add(value.slice(SCHEMAS.length));
        return [key, `#/$defs/${value.slice(SCHEMAS.length)}`];
      }
      return [key, localized(value, refs)];
    }),
  );
}

/** The components a tool's schema refers to, and those they refer to in turn. */
function definitions(doc: Document, refs: Set<string>): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (const pending = [...refs]; pending.length > 0;) {
    const name = pending.pop()!;
    if (name in defs) continue;
    const found = new Set<string>();
    defs[name] = localized(doc.components.schemas?.[name], found);
    pending.push(...[...found].filter((n) => !(n in defs)));
  }
  return defs;
}

function toolOf(doc: Document, route: V1Route): McpTool {
  const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
  if (!operation) throw new Error(`/v1 route ${route.method} ${route.path} is not in the document`);
  const refs = new Set<string>();
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const names = { path: [] as string[], query: [] as string[], header: [] as string[] };
  for (const entry of operation.parameters ?? []) {
    const parameter =
      "$ref" in entry ? doc.components.parameters![entry.$ref.slice("#/components/parameters/".length)] : entry;
    names[parameter.in].push(parameter.name);
    properties[parameter.name] = localized(
      { ...parameter.schema, ...(parameter.description ? { description: parameter.description } : {}) },
      refs,
    );
    if (parameter.required) required.push(parameter.name);
  }
  const body = operation.requestBody?.content?.["application/json"]?.schema as
    { properties?: Record<string, unknown>; required?: string[]; additionalProperties?: unknown } | undefined;
  for (const [name, schema] of Object.entries(body?.properties ?? {})) properties[name] = localized(schema, refs);
  required.push(...(body?.required ?? []));
  const defs = definitions(doc, refs);
  return {
    name: operation.operationId,
    description: [
      `${route.method} /v1${route.path}`,
      operation.summary,
      operation.description !== operation.summary ? operation.description : undefined,
    ]
      .filter(Boolean)
      .join(". "),
    inputSchema: {
      type: "object",
      properties,
      ...(required.length > 0 ? { required: [...new Set(required)] } : {}),
      ...(body?.additionalProperties === false ? { additionalProperties: false } : {}),
      ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
    },
    route,
    pathNames: names.path,
    queryNames: names.query,
    headerNames: names.header,
    jsonBody: body !== undefined,
  };
}

/** Every /v1 route as a tool, by name (made once per process: the table and the document do not change). */
export const mcpTools = (): Map<string, McpTool> =>
  processSingleton(
    "mcp.tools",
    () =>
      new Map(
        V1_ROUTES.map((route) => toolOf(openApiDocument() as unknown as Document, route)).map((t) => [t.name, t]),
      ),
  );
