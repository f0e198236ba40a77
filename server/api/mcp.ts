// The MCP server (contract: "For agents: an MCP server"), knowing neither Node's HTTP server nor
// Fetch's Response: the edge (server/http/mcp.ts) checks the key as /v1 does, then connects this
// server to the SDK's Streamable HTTP transport. A tool call is made into the /v1 request it stands
// for and answered by the /v1 dispatcher itself (server/api/v1.ts, answerV1), with the caller's
// headers: the same key, rate limits, idempotency, activity log, answers and errors. A JSON answer
// is the tool's text; an error is `isError` with the contract's error body; images and exports
// (CSV, ZIP) come back as embedded resources with their media type.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Answer } from "../http/answer";
import { mcpTools, type McpTool } from "./mcp-tools";
import { answerV1 } from "./v1";
import type { V1Request } from "./gate";

/** The largest image or export a tool returns inline (base64 in the JSON-RPC answer); larger ones are for /v1. */
export const MAX_RESOURCE_BYTES = 16 * 1024 * 1024;

export type McpCaller = {
  /** The MCP request's headers, its key as `x-api-key`: key, client address and hosts go on to /v1 as they came. */
  headers: { get(name: string): string | null };
  /** The origin the client reached (resource URIs name the /v1 address it could fetch). */
  origin: string;
};

/** The key a request presents: `x-api-key`, or `Authorization: Bearer <key>` (MCP clients send the latter). */
export function mcpKeyOf(headers: { get(name: string): string | null }): string | null {
  return headers.get("x-api-key") ?? /^Bearer\s+(\S+)$/i.exec(headers.get("authorization") ?? "")?.[1] ?? null;
}

/** Headers a call gives as its arguments (or not at all), never the MCP request's. */
const PER_CALL = /^(content-length|authorization|idempotency-key|if-unmodified-since)$/;

/** The /v1 request a tool call stands for: arguments by where the document puts them. */
export function v1RequestOf(tool: McpTool, args: Record<string, unknown>, caller: McpCaller): V1Request {
  const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
  let path = tool.route.path;
  for (const name of tool.pathNames)
    path = path.replace(`{${name}}`, encodeURIComponent(args[name] === undefined ? "" : text(args[name])));
  const query = new URLSearchParams();
  const headers = new Map<string, string>();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || tool.pathNames.includes(name)) continue;
    if (tool.headerNames.includes(name)) headers.set(name.toLowerCase(), text(value));
    else if (tool.jsonBody) body[name] = value;
    // Anything else is a query parameter, where /v1 refuses the names the route does not take.
    else query.set(name, text(value));
  }
  const json = tool.jsonBody ? JSON.stringify(body) : null;
  const get = (name: string): string | null => {
    const lower = name.toLowerCase();
    if (lower === "content-type") return json === null ? null : "application/json";
    if (PER_CALL.test(lower)) return headers.get(lower) ?? null;
    return headers.get(lower) ?? caller.headers.get(lower);
  };
  const search = query.size > 0 ? `?${query}` : "";
  return {
    method: tool.route.method,
    url: `http://localhost/v1${path}${search}`,
    headers: { get },
    body: json === null ? null : new Blob([json]).stream(),
  };
}

async function bytesOf(body: Answer["body"], limit: number): Promise<Buffer | null> {
  if (body === null) return Buffer.alloc(0);
  if (typeof body === "string" || body instanceof Uint8Array) return Buffer.from(body);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = Buffer.from(chunk);
    size += bytes.length;
    if (size > limit) return null; // leaving the loop ends the stream, and the reads behind it
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** The headers a client acts on: rate limits, Retry-After, the request id. */
function metaOf(answer: Answer) {
  const kept = Object.entries(answer.headers).filter(([name]) =>
    /^(retry-after|x-request-id|x-ratelimit-|ratelimit|idempotent-replayed)/i.test(name),
  );
  return { status: answer.status, headers: Object.fromEntries(kept) };
}

/** A /v1 answer as a tool's result. */
export async function toolResult(answer: Answer, uri: string): Promise<CallToolResult> {
  const type = answer.headers["Content-Type"] ?? "application/json";
  const bytes = await bytesOf(answer.body, MAX_RESOURCE_BYTES);
  const _meta = metaOf(answer);
  if (bytes === null)
    return {
      isError: true,
      content: [
        {
          type: "text",
          text: JSON.stringify({
            error: `The answer is larger than ${MAX_RESOURCE_BYTES} bytes: download it from ${uri}`,
          }),
        },
      ],
      _meta,
    };
  if (type.startsWith("application/json"))
    return { isError: answer.status >= 400, content: [{ type: "text", text: bytes.toString("utf8") }], _meta };
  const mimeType = type.split(";")[0].trim();
  return { content: [{ type: "resource", resource: { uri, mimeType, blob: bytes.toString("base64") } }], _meta };
}

const unknownTool = (name: string): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: JSON.stringify({ error: `Unknown tool: ${name}` }) }],
});

/** An MCP server for one request of the caller's (stateless: instances share nothing but the database). */
export function mcpServer(caller: McpCaller): Server {
  const server = new Server({ name: "qr-records", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...mcpTools().values()].map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = mcpTools().get(request.params.name);
    if (!tool) return unknownTool(request.params.name);
    const v1 = v1RequestOf(tool, request.params.arguments ?? {}, caller);
    const answer = await answerV1(v1);
    return toolResult(answer, `${caller.origin}${v1.url.slice("http://localhost".length)}`);
  });
  return server;
}
