// A static code's `type`, `url` and `content` judged together (create, batch, PATCH, CSV import):
// a `url` code has a url and no content; any other type has its content and a null url. Messages
// name the field (`content.ssid …`), paths are relative to the record.
import { z } from "zod";
import { CODE_TYPES, CONTENT_SCHEMAS, type AnyContent, type CodeType, type ContentType } from "./content";
import { contentPayload } from "./payload";

export const typeField = z
  .enum(CODE_TYPES, { error: `type must be one of ${CODE_TYPES.join(", ")}` })
  .meta({ description: "What the code holds: `url` (the default) or the fields of `content` (docs/TYPES.md)." });

/** The types' objects by their component names (TextContent, WifiContent, …), for the OpenAPI document. */
export const contentComponents = Object.fromEntries(
  Object.values(CONTENT_SCHEMAS).map((schema) => [schema.meta()!.id as string, schema]),
);

/** `content` in the document: one of the types' objects, or null. Checked with the type by `typedFieldIssues`. */
export const contentField = z.unknown().meta({
  override: {
    description:
      "The fields of a code whose `type` is not `url` (null for `url`), one object per type (docs/TYPES.md). A PATCH replaces it whole.",
    // anyOf: a phone object is also an SMS one (its body is optional).
    anyOf: [...Object.keys(contentComponents).map((id) => ({ $ref: `#/components/schemas/${id}` })), { type: "null" }],
  },
});

type Issue = { path: PropertyKey[]; message: string };

/** The issues of `content` against its type's schema, at `["content", …]`; a list item's message names its index. */
export function contentIssues(type: ContentType, content: unknown): Issue[] {
  if (content === undefined || content === null)
    return [{ path: ["content"], message: `content is required for type ${type}` }];
  const result = CONTENT_SCHEMAS[type].safeParse(content);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    path: ["content", ...issue.path],
    message: issue.message.replace(/\[\]/, `[${String(issue.path[1] ?? "")}]`),
  }));
}

/** What a code of this type holds, as stored: `url` or `content`, the other one null. */
export type TypedFields = { type: CodeType; url: string | null; content: AnyContent | null };

/** The issues of a record's type, url and content taken together (the url's own rules are its field's). */
export function typedFieldIssues(type: CodeType, url: string | null | undefined, content: unknown): Issue[] {
  if (type === "url") {
    if (url === undefined || url === null) return [{ path: ["url"], message: "url is required" }];
    return content === undefined || content === null
      ? []
      : [{ path: ["content"], message: "content is only for types other than url: send the address as url" }];
  }
  if (url !== undefined && url !== null)
    return [{ path: ["url"], message: `url must be null for type ${type}: its fields go in content` }];
  return contentIssues(type, content);
}

/** The text a static code's image encodes: its URL (as sent on every path) or its content's standard encoding. */
export function typedPayload(fields: TypedFields, sendable: (url: string) => string): string {
  return fields.type === "url" ? sendable(fields.url!) : contentPayload(fields.type, fields.content as never);
}
