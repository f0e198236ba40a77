// Security headers on every page (Next's proxy runs before each page and route handler it
// serves; /q and /v1 are answered by server/http/server.ts before Next), from the one table of
// security headers (server/platform/security-headers.js).
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/server/platform/env";
import { pagePolicy } from "@/server/platform/security-headers";

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = pagePolicy(nonce, env.development);
  const requestHeaders = new Headers(request.headers);
  // Next reads the nonce from the request's policy and puts it on the scripts it renders.
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!_next/static|_next/image|favicon.ico).*)",
      missing: [{ type: "header", key: "next-router-prefetch" }],
    },
  ],
};
