// The short link's own small pages (unknown, paused, removed, expired codes; the password
// form): phone-sized, no script, in the app's colours, with the pages' security headers.
import { EDGE_HEADERS } from "../platform/security-headers";
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page with a title, a line of text and, optionally, more HTML (already safe) under it. */
export const shortLinkPage = (title: string, text: string, more = "") => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#f6f7f9;color:#1b1f24;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border:1px solid #d0d7de;border-radius:10px;padding:2rem;max-width:28rem;margin:1rem}h1{font-size:1.4rem;margin-top:0}p{color:#57606a}
label{display:block;font-weight:600;margin-bottom:.4rem}input{box-sizing:border-box;width:100%;font-size:1rem;padding:.6rem;border:1px solid #8c959f;border-radius:6px}
button{margin-top:1rem;width:100%;font-size:1rem;padding:.7rem;border:0;border-radius:6px;background:#0b57d0;color:#fff;font-weight:600;cursor:pointer}
.alert{color:#a40e26;font-weight:600}</style>
</head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${more}<p>▦ QR Records</p></main></body></html>`;

export const HTML_HEADERS = {
  ...EDGE_HEADERS,
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
} as const;
