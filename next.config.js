import { SECURITY_HEADERS } from "./server/http/security-headers.js";

/** Headers that every answer of Next carries (the page policy itself is set in proxy.ts). */
const securityHeaders = Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value }));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver packages are loaded by Node at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg", "@napi-rs/canvas", "pdfkit", "fontkit", "zxing-wasm"],
  poweredByHeader: false,
  turbopack: { root: import.meta.dirname },
  headers: async () => [{ source: "/:path*", headers: securityHeaders }],
};

export default nextConfig;
