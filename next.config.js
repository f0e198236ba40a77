import { SECURITY_HEADERS } from "./server/platform/security-headers.js";

/** Headers that every answer of Next carries (the page policy itself is set in proxy.ts). */
const securityHeaders = Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value }));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver packages are loaded by Node at run time, not bundled. So are the
  // libraries the server's modules share: Turbopack bundles a copy of them into each route's
  // chunks, and Next loads every route (11 copies of ioredis, prom-client and zod, 6 of undici
  // and nodemailer: 140 MB of the heap); required at run time, each is loaded once.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "pg",
    "@napi-rs/canvas",
    "pdfkit",
    "fontkit",
    "zxing-wasm",
    "undici",
    "zod",
    "nodemailer",
    "ioredis",
    "prom-client",
    "lru-cache",
    "ua-parser-js",
    "mmdb-lib",
    "isbot",
    "dataloader",
    "bidi-js",
    "qrcode",
    "pngjs",
    "pino",
  ],
  poweredByHeader: false,
  // A route's modules are loaded when Next first serves it, not all at start: /q, /v1 and the
  // probes are answered before Next (server/http/server.ts), so their routes are never loaded.
  experimental: { preloadEntriesOnStart: false },
  turbopack: { root: import.meta.dirname },
  headers: async () => [{ source: "/:path*", headers: securityHeaders }],
};

export default nextConfig;
