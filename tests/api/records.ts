// The two kinds of record as the records tests (records-fields and records-patch .backends.test.ts)
// send and read them, and a batch create of either kind.
import assert from "node:assert/strict";
import { http } from "../helpers";

export type Rec = {
  qr_id?: string;
  code?: string;
  url?: string;
  destination_url?: string;
  name: string;
  metadata: Record<string, string>;
  external_id: string | null;
  updated_at: number;
  pending_change?: { fields: Record<string, unknown> } | null;
};
export type Kind = {
  path: string;
  list: string;
  id: "qr_id" | "code";
  url: "url" | "destination_url";
  missing: string;
};
export const STATIC: Kind = {
  path: "/v1/qrcodes",
  list: "qrcodes",
  id: "qr_id",
  url: "url",
  missing: "QR code not found",
};
export const DYNAMIC: Kind = {
  path: "/v1/dynqrcodes",
  list: "dynqrcodes",
  id: "code",
  url: "destination_url",
  missing: "Dynamic QR code not found",
};

export async function create(kind: Kind, key: string, items: object[]): Promise<Rec[]> {
  const json = {
    [kind.list]: items.map((extra, i) => ({ name: `Item ${i}`, [kind.url]: `https://example.com/${i}`, ...extra })),
  };
  const r = await http("POST", `${kind.path}/batch`, { key, json });
  assert.equal(r.status, 201, r.text);
  return (r.body as { created: Rec[] }).created;
}
export const idOf = (kind: Kind, rec: Rec) => rec[kind.id]!;
