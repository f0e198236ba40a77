// Requests Node's parser refuses before any handler sees them, answered in the contract's
// format (JSON `{"error": ...}` with an X-Request-Id) rather than Node's bare `400 Bad Request`:
// an unknown method (`FOO /v1/qrcodes`) is 405 with the path's `Allow` on a /v1 route, else
// 400; headers too large stay 431, a request that took too long 408.
import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { canonicalPath, routesFor } from "../api/routes";

/** The methods of the routes at a request line's /v1 path; empty elsewhere. */
function allowedAt(requestLine: string): string[] {
  const pathname = (requestLine.split(" ")[1] ?? "").split("?")[0];
  if (!pathname.startsWith("/v1/") || canonicalPath(pathname) !== pathname) return [];
  // As the dispatcher's 405 says it (HEAD is answered wherever GET is).
  return [...new Set(routesFor(pathname.slice("/v1".length)).map((r) => r.method))];
}

export function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  // A response still being written on this connection (a pipelined request after it failed to
  // parse) cannot be followed by another: the connection is dropped, as Node does.
  if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) return void socket.destroy();
  const allow =
    error.code === "HPE_INVALID_METHOD" ? allowedAt((error.rawPacket?.toString("latin1") ?? "").split("\r\n")[0]) : [];
  const [status, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request headers too large"]
      : error.code === "HPE_HEADERS_TIMEOUT" || error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request timeout"]
        : allow.length > 0
          ? [405, `Method not allowed: use ${allow.join(", ")}`]
          : [400, error.code === "HPE_INVALID_METHOD" ? "Unknown method" : "Bad request"];
  const body = JSON.stringify({ error: message });
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`,
    ...(allow.length > 0 ? [`Allow: ${allow.join(", ")}`] : []),
    "Connection: close",
  ];
  socket.end(`${headers.join("\r\n")}\r\n\r\n${body}`);
}
