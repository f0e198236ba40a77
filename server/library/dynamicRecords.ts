// A dynamic code's shapes: what a create, a batch and a PATCH take, and the record /v1 answers
// with (the webhooks' payloads carry the same). Apart from the use cases (dynamicCodes.ts), so
// that what reads a record needs none of them.
import { z } from "zod";
import { env } from "../platform/env";
import { futureExpiresAtField, rulesInput, rulesRecord, rulesRecordOf, type RuleColumns } from "../rules";
import { sendableUrl } from "../platform/urls";
import { pendingChangeOf, pendingChangeRecord } from "../teams/pendingChanges";
import { extrasInput, extrasPatch, extrasRecord, extrasRecordOf, type ExtrasColumns } from "./recordExtras";
import { batchArray, bodyObject, nameField, styleField, toSeconds, urlField } from "./validation";
import { backHalfField, CODE_MAX_LENGTH, CODE_PATTERN } from "./backHalf";
import { domainField } from "../domains/names";
import { stylePresetField } from "../stylePresets/presetFields";
import {
  checkDynamicTyped,
  dynamicTypeField,
  DYNAMIC_TYPES,
  hostedContentField,
  type DynamicType,
} from "../hosted/content";

export const STATUSES = ["active", "paused", "draft"] as const;
export type DynamicStatus = (typeof STATUSES)[number];

export const dynamicCodeInput = bodyObject({
  type: dynamicTypeField.optional(),
  destination_url: urlField("destination_url").nullable().optional(),
  content: hostedContentField.optional(),
  name: nameField,
  code: backHalfField.optional(),
  domain: domainField.optional().meta({
    description:
      "A verified custom domain of the library (POST /v1/domains): the short link is then `https://<domain>/<code>`. A domain the library has not added is 400, one not verified yet 409.",
    example: "go.example.com",
  }),
  style: styleField.optional(),
  style_preset: stylePresetField.optional(),
  ...rulesInput,
  expires_at: futureExpiresAtField.optional(),
  ...extrasInput,
})
  .superRefine((item, ctx) => {
    for (const issue of checkDynamicTyped(item.type ?? "url", item.destination_url, item.content).issues)
      ctx.addIssue({ code: "custom", ...issue });
  })
  // The example a form builds the body from (Swagger UI's Try it out): without the unique code
  // and external_id, so that Execute twice creates two codes.
  .meta({ example: { destination_url: "https://example.com/menu", name: "Lunch menu" } });
export const dynamicBatchInput = bodyObject({ dynqrcodes: batchArray("dynqrcodes", dynamicCodeInput) });
/** A dynamic code in a path: documented with its shape (any other text is simply not found). */
export const codeParam = z.string().meta({
  description: "The code, as in its short_url: 8 generated characters, or the back-half chosen at create.",
  pattern: CODE_PATTERN,
  maxLength: CODE_MAX_LENGTH,
});

/** What a PATCH changes (a batch PATCH's items too). */
export const dynamicPatchFields = {
  type: dynamicTypeField.optional(),
  destination_url: urlField("destination_url").nullable().optional(),
  content: hostedContentField.optional(),
  name: nameField.optional(),
  status: z.enum(STATUSES, { error: "status must be one of active, paused, draft" }).optional(),
  style: styleField.optional(),
  style_preset: stylePresetField.optional(),
  ...rulesInput,
  ...extrasPatch,
};
export const dynamicPatchInput = bodyObject({ code: codeParam, ...dynamicPatchFields }).meta({
  example: { name: "Lunch menu (winter)" },
  minProperties: 1,
});
export type DynamicCodeInput = z.infer<typeof dynamicCodeInput>;

export const dynamicRecord = z
  .object({
    code: z.string(),
    domain: z
      .string()
      .nullable()
      .meta({ description: "The custom domain its short link lives on; null: the service's own `/q/` base." }),
    short_url: z.string(),
    type: z.enum(DYNAMIC_TYPES),
    destination_url: z.string().nullable().meta({
      description: "Where a `url` code's scans go; null for `vcard` and `page` codes (their page is made of content).",
    }),
    content: hostedContentField,
    name: z.string(),
    style: styleField,
    status: z.enum(STATUSES),
    team_id: z.string().nullable(),
    created_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
    updated_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
    ...rulesRecord,
    pending_change: pendingChangeRecord
      .nullable()
      .meta({ description: "A writer's change waiting for an admin's review (team codes); null when none." }),
    ...extrasRecord,
  })
  .meta({ id: "DynamicQrCode" });
export type DynamicRecord = z.infer<typeof dynamicRecord>;

type Row = {
  code: string;
  /** "" for the service's own base. */
  domain: string;
  type: string;
  /** "" for a vcard or page code. */
  destinationUrl: string;
  content: string | null;
  name: string;
  style: string;
  status: string;
  teamId: string | null;
  createdAt: Date | number;
  updatedAt: Date | number;
  pendingChange?: string | null;
} & RuleColumns &
  Partial<ExtrasColumns>;

/** The address a code's QR image encodes: on its custom domain at the root, else under /q/ of the service's base. */
export const shortUrl = (code: string, domain: string) =>
  domain === "" ? `${env.shortBaseUrl}/q/${code}` : `https://${domain}/${code}`;

/** A stored row as the API shows it. */
export const dynamicRecordOf = (row: Row): DynamicRecord => ({
  code: row.code,
  domain: row.domain === "" ? null : row.domain,
  short_url: shortUrl(row.code, row.domain),
  type: row.type as DynamicType,
  destination_url: row.type === "url" ? sendableUrl(row.destinationUrl) : null,
  content: row.content ? JSON.parse(row.content) : null,
  name: row.name,
  style: JSON.parse(row.style),
  status: row.status as DynamicStatus,
  team_id: row.teamId,
  created_at: toSeconds(row.createdAt),
  updated_at: toSeconds(row.updatedAt),
  ...rulesRecordOf(row),
  pending_change: pendingChangeOf(row.pendingChange),
  ...extrasRecordOf(row),
});
