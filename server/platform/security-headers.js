// The security headers, in one table for both edges: Next's (next.config.js puts
// SECURITY_HEADERS on everything it answers; proxy.ts adds the pages' policy, with a nonce)
// and the Node server's, which answers /q and /v1 before Next (server/http/answer.ts's
// writeAnswer, the short link's pages in server/scan/page.ts). Plain JavaScript, so that
// next.config.js imports it as it is.

/** On every answer: no sniffing, no framing, the origin only as referrer to other sites. */
export const SECURITY_HEADERS = Object.freeze({
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
});

/**
 * The pages' policy. A fresh nonce per answer lets Next's own scripts run without
 * 'unsafe-inline' scripts; 'strict-dynamic' extends that trust to the chunks they load.
 * @param {string} nonce
 * @param {boolean} development `next dev` evaluates code ('unsafe-eval')
 */
export function pagePolicy(nonce, development) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
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
}

/**
 * Answers made before Next (the short link's pages, JSON, QR images): no script at all, the
 * pages' one inline style sheet, a form that posts only here, never in a frame.
 */
export const EDGE_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** What the Node server puts on each answer it makes itself. */
export const EDGE_HEADERS = Object.freeze({ ...SECURITY_HEADERS, "Content-Security-Policy": EDGE_POLICY });
