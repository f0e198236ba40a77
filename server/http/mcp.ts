// /mcp on the Node server (contract: "For agents: an MCP server"): the key checked as /v1 checks
// it (the same 401 or 403, before any MCP work), the body bounded as /v1 bounds it (1 MiB, JSON),
// then the SDK's Streamable HTTP transport, stateless (a server and transport per request, so
// any instance answers any request), with JSON answers rather than an event stream. What the
// tools do is server/api/mcp.ts.
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { DomainError } from "../platform/errors";
import { logError } from "../platform/log";
import { servedOrigin } from "../platform/served-host";
import { mcpKeyOf, mcpServer } from "../api/mcp";
import { keyRefusal } from "../api/gate";
import { writeAnswer } from "./answer";
import { errorAnswer } from "./errors";

const MAX_BODY_BYTES = 1024 * 1024;

/** The request's headers as /v1 reads them, its key as `x-api-key` whichever way it came. */
function headersOf(req: IncomingMessage) {
  const raw = (name: string) => {
    const value = req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  };
  return {
    get: (name: string) => (name.toLowerCase() === "x-api-key" ? mcpKeyOf({ get: raw }) : raw(name.toLowerCase())),
    repeated: (name: string) => (req.headersDistinct[name.toLowerCase()]?.length ?? 0) > 1,
  };
}

/** The JSON body, at most 1 MiB; past that, the rest is read and dropped so the 413 reaches the client. */
async function jsonBody(req: IncomingMessage): Promise<unknown> {
  if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? ""))
    throw new DomainError("unsupported_media_type", "Content-Type must be application/json");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) throw new DomainError("payload_too_large", "The body must be at most 1 MiB");
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new DomainError("invalid", "The body is not valid JSON");
  }
}

/** /mcp answered; never throws (a fault is logged and answered 500, or the connection closed). */
export async function serveMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    await answerMcp(req, res);
  } catch (error) {
    logError("http.failed", { path: "/mcp" }, error);
    if (!res.headersSent) await writeAnswer(res, "GET", errorAnswer(error, ""));
    else res.destroy();
  }
}

async function answerMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = headersOf(req);
  const refused = await keyRefusal({ headers });
  if (refused) {
    res.setHeader("Connection", "close"); // a body may still be on its way
    return writeAnswer(res, req.method ?? "GET", refused);
  }
  let body: unknown;
  if (req.method === "POST")
    try {
      body = await jsonBody(req);
    } catch (error) {
      return writeAnswer(res, "POST", errorAnswer(error, ""));
    }
  const server = mcpServer({ headers, origin: servedOrigin(headers) });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.once("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
