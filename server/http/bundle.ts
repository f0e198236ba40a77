// GET and POST /v1/bundle (docs/BUNDLE.md): the library out as NDJSON, and such a body in. What
// the document says of them (the route table checks it as its RawDoc), and their answers from
// the domain's (server/bundle).
import { actorOf, recordActivity } from "../activity";
import { bundleChunks } from "../bundle/exportBundle";
import { importBundle } from "../bundle/importBundle";
import { MAX_LINE_BYTES } from "../bundle/lines";
import type { Principal } from "../keys/apiKeys";
import { DomainError } from "../platform/errors";
import type { RawBody } from "./body";
import { jsonAnswer, ndjsonAnswer, type Answer } from "./answer";

const TAGS = ["Bundle"];
const FORMAT = "The format, field by field with defaults: docs/BUNDLE.md.";

export const BUNDLE_EXPORT_DOC = {
  operationId: "bundle-export",
  summary: "Export the whole library as a bundle",
  description:
    'The library\'s every static and dynamic code (style with logo, rules, metadata, password hash) and every scan, as NDJSON streamed as it is read: a first line `{"type": "bundle", "version": 1, "exported_at"}`, then `static`, `dynamic` and `scan` lines, each code\'s scans after it. Any key that reads the library may export it. ' +
    FORMAT,
  tags: TAGS,
  parameters: [],
  ok: {
    description: "NDJSON, one line per record",
    content: {
      "application/x-ndjson": {
        // No limit on the body (only on each line): the largest length a JSON number holds exactly.
        schema: { type: "string", format: "binary", maxLength: Number.MAX_SAFE_INTEGER },
      },
    },
  },
};

export const BUNDLE_IMPORT_DOC = {
  operationId: "bundle-import",
  summary: "Import a bundle into the library",
  description:
    `A bundle (as GET /v1/bundle gives it, or written by hand or an importer) streamed into the key's library, all or nothing: every line is checked before anything is written. Lines of at most ${MAX_LINE_BYTES} bytes, no limit on the body. 400 or 409 \`{"errors": [{"line", "error"}]}\` and nothing written; posting it again creates nothing twice (codes already imported are skipped with their scans). A personal key, or a team admin's. ` +
    FORMAT,
  tags: TAGS,
  parameters: [],
  requestBody: {
    required: true,
    content: {
      "application/x-ndjson": {
        // No limit on the body (only on each line): the largest length a JSON number holds exactly.
        schema: { type: "string", format: "binary", maxLength: Number.MAX_SAFE_INTEGER },
      },
    },
  },
  ok: {
    description: "What was created, and what was already imported",
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: Object.fromEntries(
            ["created", "skipped"].map((name) => [
              name,
              {
                type: "object",
                properties: Object.fromEntries(
                  ["static", "dynamic", "scans"].map((kind) => [
                    kind,
                    { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
                  ]),
                ),
              },
            ]),
          ),
        },
      },
    },
  },
};

const libraryLog = (principal: Principal) =>
  principal.library.kind === "team" ? { teamId: principal.library.teamId } : { userId: principal.userId };

export async function bundleExportAnswer(principal: Principal): Promise<Answer> {
  await recordActivity({
    ...libraryLog(principal),
    actor: await actorOf(principal.userId),
    action: "bundle.exported",
    detail: { via: "API" },
  });
  return ndjsonAnswer("bundle", bundleChunks(principal.library));
}

const NDJSON = /^application\/(x-)?ndjson\s*(;|$)/i;

export async function bundleImportAnswer(principal: Principal, body: RawBody): Promise<Answer> {
  if (!NDJSON.test(body.contentType ?? ""))
    throw new DomainError("unsupported_media_type", "Content-Type must be application/x-ndjson");
  return jsonAnswer(200, await importBundle(principal, body.stream));
}
