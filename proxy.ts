// Security headers on every page (Next's proxy runs before each page and route handler it
// serves; /q and /v1 are answered by server/http-server.ts before Next). A fresh nonce per
// request lets Next's own scripts run under a CSP without 'unsafe-inline' scripts;
// 'strict-dynamic' extends that trust to the chunks they load.
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/server/env";

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${env.development ? " 'unsafe-eval'" : ""}`,
    // React writes style attributes (bar widths) and the API reference injects styles.
    "style-src 'self' 'unsafe-inline'",
    // QR previews are drawn in the browser as data: URLs.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  const requestHeaders = new Headers(request.headers);
  // Next reads the nonce from the request's policy and puts it on the scripts it renders.
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico).*)", missing: [{ type: "header", key: "next-router-prefetch" }] }],
};
