// What a dynamic code holds (contract Part 3, "Every kind of code"; docs/TYPES.md): a `url` code
// redirects to its destination_url; a `vcard` or `page` code's /q answers a hosted mobile page
// made of its `content`, and its destination_url is null. The vcard's fields are the static
// vcard's; a page is a title and 1 to 20 links, each checked like a destination.
import { z } from "zod";
import { CONTENT_SCHEMAS, LIMITS, text, type Content } from "../codeTypes/content";
import { urlField } from "../library/validation";

export const DYNAMIC_TYPES = ["url", "vcard", "page"] as const;
export type DynamicType = (typeof DYNAMIC_TYPES)[number];
export type HostedType = Exclude<DynamicType, "url">;
export const MAX_PAGE_LINKS = 20;

const link = z
  .strictObject(
    {
      label: text("content.links[].label", { min: 1, max: LIMITS.name }),
      url: urlField("content.links[].url"),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `content.links[] has an unknown field: ${(issue as { keys: string[] }).keys.join(", ")}`
          : "content.links[] must be an object with label and url",
    },
  )
  .meta({ id: "PageLink" });

const pageContent = z
  .strictObject(
    {
      title: text("content.title", { min: 1, max: LIMITS.line }),
      // Counted before any link is looked at.
      links: z.preprocess(
        (value) => (Array.isArray(value) && value.length > MAX_PAGE_LINKS ? value.slice(0, MAX_PAGE_LINKS + 1) : value),
        z
          .array(link, {
            error: (i) =>
              i.input === undefined ? "content.links is required" : "content.links must be an array of links",
          })
          .min(1, `content.links holds 1 to ${MAX_PAGE_LINKS} links`)
          .max(MAX_PAGE_LINKS, `content.links holds 1 to ${MAX_PAGE_LINKS} links`),
      ),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `content has an unknown field for type page: ${(issue as { keys: string[] }).keys.join(", ")}`
          : "content must be an object of the page fields",
    },
  )
  .meta({
    id: "PageContent",
    example: {
      title: "Café Linden",
      links: [
        { label: "Menu", url: "https://example.com/menu" },
        { label: "Book a table", url: "https://example.com/book" },
      ],
    },
  });

export const HOSTED_SCHEMAS = { vcard: CONTENT_SCHEMAS.vcard, page: pageContent } as const;
export type PageContent = z.infer<typeof pageContent>;
export type HostedContent = { vcard: Content["vcard"]; page: PageContent };
/** A hosted code's type with its content, as the page is made from it. */
export type Hosted = { type: "vcard"; content: Content["vcard"] } | { type: "page"; content: PageContent };

export const dynamicTypeField = z
  .enum(DYNAMIC_TYPES, { error: `type must be one of ${DYNAMIC_TYPES.join(", ")}` })
  .meta({
    description:
      "What /q answers: `url` (the default) redirects to destination_url; `vcard` and `page` answer a hosted mobile page made of `content` (docs/TYPES.md).",
  });

export const hostedContentField = z.unknown().meta({
  override: {
    description:
      "A `vcard` or `page` code's fields (null for `url`): the contact card, or a page's title and 1 to 20 links. A PATCH replaces it whole.",
    anyOf: [
      { $ref: "#/components/schemas/VcardContent" },
      { $ref: "#/components/schemas/PageContent" },
      { type: "null" },
    ],
  },
});

type Issue = { path: PropertyKey[]; message: string };
export type CheckedHosted = { issues: Issue[]; content: HostedContent[HostedType] | null };

/** `content` checked against its type (issues at `["content", …]`, a list item's message naming its index); the parsed content (URLs serialised). */
export function checkHostedContent(type: HostedType, content: unknown): CheckedHosted {
  if (content === undefined || content === null)
    return { issues: [{ path: ["content"], message: `content is required for type ${type}` }], content: null };
  const result = HOSTED_SCHEMAS[type].safeParse(content);
  if (result.success) return { issues: [], content: result.data };
  const issues = result.error.issues.map((issue) => ({
    path: ["content", ...issue.path],
    message: issue.message.replace(/\[\]/, `[${String(issue.path[1] ?? "")}]`),
  }));
  return { issues, content: null };
}

/** What a dynamic code is after a create or PATCH: its type, and its destination or its content (the other null). */
export type DynamicTyped = {
  type: DynamicType;
  destinationUrl: string | null;
  content: HostedContent[HostedType] | null;
};

/** The issues of a code's type, destination_url and content taken together, and the typed fields when there are none. */
export function checkDynamicTyped(
  type: DynamicType,
  destinationUrl: string | null | undefined,
  content: unknown,
): { issues: Issue[]; typed: DynamicTyped | null } {
  if (type === "url") {
    if (destinationUrl === undefined || destinationUrl === null)
      return { issues: [{ path: ["destination_url"], message: "destination_url is required" }], typed: null };
    if (content !== undefined && content !== null)
      return {
        issues: [
          {
            path: ["content"],
            message: "content is only for types vcard and page: send the address as destination_url",
          },
        ],
        typed: null,
      };
    return { issues: [], typed: { type, destinationUrl, content: null } };
  }
  if (destinationUrl !== undefined && destinationUrl !== null)
    return {
      issues: [
        {
          path: ["destination_url"],
          message: `destination_url must be null for type ${type}: its page is made of content`,
        },
      ],
      typed: null,
    };
  const checked = checkHostedContent(type, content);
  return checked.issues.length > 0
    ? { issues: checked.issues, typed: null }
    : { issues: [], typed: { type, destinationUrl: null, content: checked.content } };
}

/** A stored row's hosted part, or null for a `url` code. */
export function hostedOfRow(row: { type: string; content: string | null }): Hosted | null {
  if (row.type === "url" || row.content === null) return null;
  return { type: row.type, content: JSON.parse(row.content) } as Hosted;
}

/** The columns of typed fields (destinationUrl "" for a hosted code: the column stays NOT NULL). */
export const typedColumns = (typed: DynamicTyped) => ({
  type: typed.type,
  destinationUrl: typed.destinationUrl ?? "",
  content: typed.content === null ? null : JSON.stringify(typed.content),
});

/** A create's checked type, destination_url and content as columns (its schema refused any issue already). */
export function createdTypedColumns(item: { type?: DynamicType; destination_url?: string | null; content?: unknown }) {
  const { typed } = checkDynamicTyped(item.type ?? "url", item.destination_url, item.content);
  return typedColumns(typed!);
}

/** A page's link URLs as sent (a vcard's content has none), for the redirect-loop rule. */
export function pageLinksOf(content: unknown): string[] {
  const links = (content as { links?: unknown } | null | undefined)?.links;
  return Array.isArray(links)
    ? links.flatMap((link) =>
        typeof (link as { url?: unknown })?.url === "string" ? [(link as { url: string }).url] : [],
      )
    : [];
}
