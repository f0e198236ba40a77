// The API reference UI (swagger-ui-dist, Apache-2.0), served from the app's own
// node_modules: no script or style comes from a CDN.
import { readFile } from "node:fs/promises";
import path from "node:path";

const FILES: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};

export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const type = FILES[file];
  if (!type)
    return new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const body = await readFile(path.join(process.cwd(), "node_modules", "swagger-ui-dist", file));
  return new Response(new Uint8Array(body), {
    headers: { "Content-Type": type, "Cache-Control": "public, max-age=86400" },
  });
}
