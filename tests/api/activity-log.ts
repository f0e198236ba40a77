// The activity log's coverage tests (activity-coverage and activity-v1 .integration.test.ts):
// the fixture each change runs against, the scenarios' helpers, and the test that runs a change
// and reads what it added to the team's log.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { it } from "node:test";
import { db } from "../../server/platform/db";
import { linkIn, waitForMail } from "../mail-sink";
import { setTxtRecord } from "../dns-server";
import { http, logIn, makeTeam, makeUser } from "../helpers";

/** The fixture, the last entry before the change (a scenario that prepares more moves it) and the team whose log is read. */
type Fixture = Awaited<ReturnType<typeof fixture>> & { since: string; teamId: string };
/** What a change does to the team's log: the actions it may add (one at least), and whether they must say before and after. */
type Change = { run: (fx: Fixture) => Promise<unknown>; actions: string[]; beforeAfter?: boolean };
export type Coverage = Change | { none: string };

export const HOOK = "https://93.184.215.14/hooks";
export const ACCOUNT = "the account's own data (its log, not the team's)";

/** A team with an admin and a writer (sessions and keys), a published code, a draft of each kind and a webhook. */
async function fixture() {
  const team = await makeTeam();
  const writer = await team.addWriter();
  const admin = await logIn(team.admin.email);
  const writerSession = await logIn(writer.user.email);
  const create = async (json: object) =>
    ((await http("POST", "/v1/dynqrcodes", { key: writer.key, json })).body as { created: { code: string }[] })
      .created[0].code;
  const published = await create({ name: "Live", destination_url: "https://example.com/live" });
  await admin("team.approve", { kind: "dynamic", id: published });
  const draft = await create({ name: "Draft", destination_url: "https://example.com/draft" });
  const staticDraft = (
    (await http("POST", "/v1/qrcodes", { key: writer.key, json: { name: "S", url: "https://example.com/s" } }))
      .body as { created: { qr_id: string }[] }
  ).created[0].qr_id;
  const hook = (
    (await http("POST", "/v1/webhooks", { key: team.adminKey, json: { url: HOOK, events: ["dynqrcode.updated"] } }))
      .body as { webhook: { webhook_id: string } }
  ).webhook.webhook_id;
  return { team, writer, admin, writerSession, published, draft, staticDraft, hook };
}

export const asWriterHeld = (fx: Fixture) =>
  http("PATCH", `/v1/dynqrcodes/${fx.published}`, {
    key: fx.writer.key,
    json: { destination_url: "https://example.com/held" },
  });
export const inviteAndToken = async (fx: Fixture) => {
  const invitee = await makeUser("free");
  await fx.admin("invitations.send", { email: invitee.email, role: "writer" });
  const token = linkIn(await waitForMail(invitee.email, /Join the team/), "/invite/").pathname.slice("/invite/".length);
  return { invitee, token };
};

export const domainName = () => `log-${randomBytes(5).toString("hex")}.example.com`;
/** A domain the team's admin added, its TXT record in place at the run's DNS server. */
export async function domainWithRecord(fx: Fixture): Promise<string> {
  const r = await http("POST", "/v1/domains", { key: fx.team.adminKey, json: { domain: domainName() } });
  const { domain } = r.body as { domain: { domain: string; verification: { name: string; value: string } } };
  setTxtRecord(domain.verification.name, [domain.verification.value]);
  return domain.domain;
}

export const presetName = () => `Log ${randomBytes(5).toString("hex")}`;
/** A style preset the team's admin saved. */
export async function savedPreset(fx: Fixture): Promise<string> {
  const r = await http("POST", "/v1/style-presets", { key: fx.team.adminKey, json: { name: presetName(), style: {} } });
  return (r.body as { style_preset: { name: string } }).style_preset.name;
}
export const presetPath = (name: string) => `/v1/style-presets/${encodeURIComponent(name)}`;

export const lastEntryId = async (teamId: string) =>
  (await db.activityEntry.findFirst({ where: { teamId }, orderBy: { id: "desc" }, select: { id: true } }))?.id ?? "";

/** A test for each change of `table` that writes to the log: run on a fresh fixture, it must add entries of its actions. */
export function itLogs(table: Record<string, Coverage>) {
  for (const [name, coverage] of Object.entries(table)) {
    if ("none" in coverage) continue;
    it(`${name}: ${coverage.actions.join(" or ")}${coverage.beforeAfter ? ", with before and after" : ""}`, async () => {
      const base = await fixture();
      const fx: Fixture = Object.assign(base, { since: await lastEntryId(base.team.id), teamId: base.team.id });
      await coverage.run(fx);
      const added = await db.activityEntry.findMany({
        where: { teamId: fx.teamId, ...(fx.teamId === base.team.id ? { id: { gt: fx.since } } : {}) },
        orderBy: { id: "asc" },
      });
      assert.ok(added.length > 0, `${name} added nothing to the team's log`);
      for (const entry of added) {
        assert.ok(coverage.actions.includes(entry.action), `${name} logged ${entry.action}`);
        if (!coverage.beforeAfter) continue;
        const detail = JSON.parse(entry.detail ?? "{}") as Record<string, unknown>;
        assert.ok(
          "before" in detail && "after" in detail,
          `${entry.action} of ${name} says before and after: ${entry.detail}`,
        );
        assert.ok(detail.before !== null || detail.after !== null);
      }
    });
  }
}
