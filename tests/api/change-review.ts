// A team code an admin published, and what the review of its changes leaves behind (the /q
// location, the dynqrcode.updated events, the team's log): for the change-review tests
// (change-review-holds and change-review-decisions .integration.test.ts).
import assert from "node:assert/strict";
import { db } from "../../server/platform/db";
import { http, logIn, makeTeam } from "../helpers";

type Pending = { fields: Record<string, unknown>; by: string; created_at: number } | null;
export type Dyn = {
  code: string;
  name: string;
  destination_url: string;
  status: string;
  utm: unknown;
  password_protected: boolean;
  updated_at: number;
  pending_change: Pending;
};

/** A team with a writer and a code an admin published (active) that leads to https://example.com/approved. */
export async function published() {
  const team = await makeTeam();
  const writer = await team.addWriter();
  const created = await http("POST", "/v1/dynqrcodes", {
    key: writer.key,
    json: { name: "Menu", destination_url: "https://example.com/approved" },
  });
  assert.equal(created.status, 201);
  const code = (created.body as { created: Dyn[] }).created[0].code;
  assert.equal(
    (await http("PATCH", `/v1/dynqrcodes/${code}`, { key: team.adminKey, json: { status: "active" } })).status,
    200,
  );
  const hook = await http("POST", "/v1/webhooks", {
    key: team.adminKey,
    json: { url: "https://93.184.215.14/hooks", events: ["dynqrcode.updated"] },
  });
  assert.equal(hook.status, 201);
  return { team, writer, code, admin: await logIn(team.admin.email) };
}

/** A code a writer created in the team library: a draft, never published. */
export async function writerDraft(key: string): Promise<Dyn> {
  const created = await http("POST", "/v1/dynqrcodes", {
    key,
    json: { name: "D", destination_url: "https://example.com/a" },
  });
  return (created.body as { created: Dyn[] }).created[0];
}

export const location = async (code: string) => (await http("GET", `/q/${code}`)).headers.get("location");
export const updatedEvents = (code: string) =>
  db.webhookEvent
    .findMany({ where: { type: "dynqrcode.updated" } })
    .then((events) => events.filter((e) => JSON.parse(e.payload).data.code === code));
export const teamLog = (teamId: string, action: string) =>
  db.activityEntry
    .findMany({ where: { teamId, action }, orderBy: { id: "asc" } })
    .then((rows) => rows.map((r) => ({ target: r.target, actor: r.actorLabel, ...JSON.parse(r.detail!) })));
