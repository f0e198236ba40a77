// The activity log records every change to team data (issue 37, point 10). The pages' tRPC
// mutations are read from the router itself and the /v1 writes from the route table: each is
// either run here against a team, and must add an entry to the team's log (a change to a code,
// a webhook or the team with its before and after), or named with the reason it changes no team
// data. A mutation or write added without either fails the first test, by name.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import type { AnyTRPCProcedure } from "@trpc/server";
import { appRouter } from "../../server/api/root";
import { V1_ROUTES } from "../../server/api/routes";
import { db } from "../../server/platform/db";
import { linkIn, waitForMail } from "../mail-sink";
import { setTxtRecord } from "../dns-server";
import { http, logIn, makeTeam, makeUser, TEST_PASSWORD } from "../helpers";

/** The fixture, the last entry before the change (a scenario that prepares more moves it) and the team whose log is read. */
type Fixture = Awaited<ReturnType<typeof fixture>> & { since: string; teamId: string };
/** What a change does to the team's log: the actions it may add (one at least), and whether they must say before and after. */
type Change = { run: (fx: Fixture) => Promise<unknown>; actions: string[]; beforeAfter?: boolean };
type Coverage = Change | { none: string };

const HOOK = "https://93.184.215.14/hooks";
const ACCOUNT = "the account's own data (its log, not the team's)";

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

const asWriterHeld = (fx: Fixture) =>
  http("PATCH", `/v1/dynqrcodes/${fx.published}`, {
    key: fx.writer.key,
    json: { destination_url: "https://example.com/held" },
  });
const inviteAndToken = async (fx: Fixture) => {
  const invitee = await makeUser("free");
  await fx.admin("invitations.send", { email: invitee.email, role: "writer" });
  const token = linkIn(await waitForMail(invitee.email, /Join the team/), "/invite/").pathname.slice("/invite/".length);
  return { invitee, token };
};

const domainName = () => `log-${randomBytes(5).toString("hex")}.example.com`;
/** A domain the team's admin added, its TXT record in place at the run's DNS server. */
async function domainWithRecord(fx: Fixture): Promise<string> {
  const r = await http("POST", "/v1/domains", { key: fx.team.adminKey, json: { domain: domainName() } });
  const { domain } = r.body as { domain: { domain: string; verification: { name: string; value: string } } };
  setTxtRecord(domain.verification.name, [domain.verification.value]);
  return domain.domain;
}

const presetName = () => `Log ${randomBytes(5).toString("hex")}`;
/** A style preset the team's admin saved. */
async function savedPreset(fx: Fixture): Promise<string> {
  const r = await http("POST", "/v1/style-presets", { key: fx.team.adminKey, json: { name: presetName(), style: {} } });
  return (r.body as { style_preset: { name: string } }).style_preset.name;
}
const presetPath = (name: string) => `/v1/style-presets/${encodeURIComponent(name)}`;

/** Every mutation of the pages (by its path) and every /v1 write (METHOD path): how it reaches the team's log, or why it does not. */
const COVERAGE: Record<string, Coverage> = {
  "keys.generatePersonal": { none: ACCOUNT },
  "keys.revokePersonal": { none: ACCOUNT },
  "account.signup": { none: ACCOUNT },
  "account.verifyEmail": { none: ACCOUNT },
  "account.resendVerification": { none: "sends a mail, changes nothing" },
  "account.forgotPassword": { none: "sends a mail, changes nothing" },
  "account.resetPassword": { none: ACCOUNT },
  "account.changePassword": { none: ACCOUNT },
  "account.changeEmail": { none: "sends a mail to confirm, changes nothing yet" },
  "account.confirmEmail": { none: ACCOUNT },
  "account.undoEmailChange": { none: ACCOUNT },
  "account.logOutEverywhere": { none: ACCOUNT },
  "account.delete": {
    run: async (fx) => fx.writerSession("account.delete", { email: fx.writer.user.email, password: TEST_PASSWORD }),
    actions: ["member.removed", "key.revoked"],
  },
  "twoFactor.start": { none: ACCOUNT },
  "twoFactor.confirm": { none: ACCOUNT },
  "twoFactor.disable": { none: ACCOUNT },
  "team.create": {
    run: async (fx) => {
      const founder = await makeUser("business");
      await (
        await logIn(founder.email)
      )("team.create", { name: "Founded" });
      fx.teamId = (await db.membership.findUniqueOrThrow({ where: { userId: founder.id } })).teamId;
    },
    actions: ["team.created"],
    beforeAfter: true,
  },
  "team.setRole": {
    run: (fx) => fx.admin("team.setRole", { userId: fx.writer.user.id, role: "viewer" }),
    actions: ["member.role_changed", "key.revoked"],
  },
  "team.removeMember": {
    run: (fx) => fx.admin("team.removeMember", { userId: fx.writer.user.id }),
    actions: ["member.removed", "key.revoked"],
  },
  "team.makeOwner": {
    run: async (fx) => {
      await fx.admin("team.setRole", { userId: fx.writer.user.id, role: "admin" });
      await fx.admin("team.makeOwner", { userId: fx.writer.user.id });
    },
    actions: ["member.role_changed", "team.owner_changed"],
  },
  "team.generateKey": {
    run: async (fx) => {
      const { invitee, token } = await inviteAndToken(fx);
      const session = await logIn(invitee.email);
      await session("invitations.accept", { token });
      fx.since = await lastEntryId(fx.team.id);
      await session("team.generateKey");
    },
    actions: ["key.generated"],
  },
  "team.revokeKey": {
    run: async (fx) => {
      const overview = (await fx.admin.query("team.overview")) as { keys: { id: string; email: string }[] };
      await fx.admin("team.revokeKey", { keyId: overview.keys.find((k) => k.email === fx.writer.user.email)!.id });
    },
    actions: ["key.revoked"],
  },
  "team.approve": {
    run: (fx) => fx.admin("team.approve", { kind: "dynamic", id: fx.draft }),
    actions: ["draft.approved"],
    beforeAfter: true,
  },
  "team.reject": {
    run: (fx) => fx.admin("team.reject", { kind: "static", id: fx.staticDraft, reason: "Not needed" }),
    actions: ["draft.rejected"],
    beforeAfter: true,
  },
  "team.review": {
    run: (fx) =>
      fx.admin("team.review", {
        decision: "approve",
        items: [
          { kind: "dynamic", id: fx.draft },
          { kind: "static", id: fx.staticDraft },
        ],
      }),
    actions: ["draft.approved"],
    beforeAfter: true,
  },
  "team.reviewChange": {
    run: async (fx) => {
      await asWriterHeld(fx);
      fx.since = await lastEntryId(fx.team.id);
      await fx.admin("team.reviewChange", { code: fx.published, decision: "reject", reason: "no" });
    },
    actions: ["code.change_rejected"],
    beforeAfter: true,
  },
  "invitations.send": { run: (fx) => inviteAndToken(fx), actions: ["invitation.sent"] },
  "invitations.cancel": {
    run: async (fx) => {
      await inviteAndToken(fx);
      const [pending] = (await fx.admin.query("invitations.pending")) as { id: string }[];
      fx.since = await lastEntryId(fx.team.id);
      await fx.admin("invitations.cancel", { id: pending.id });
    },
    actions: ["invitation.cancelled"],
  },
  "invitations.accept": {
    run: async (fx) => {
      const { invitee, token } = await inviteAndToken(fx);
      fx.since = await lastEntryId(fx.team.id);
      await (
        await logIn(invitee.email)
      )("invitations.accept", { token });
    },
    actions: ["member.joined"],
  },
  "library.create": {
    run: (fx) =>
      fx.writerSession("library.create", {
        scope: "team",
        kind: "dynamic",
        name: "Page",
        url: "https://example.com/p",
      }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "library.createMany": {
    run: (fx) =>
      fx.writerSession("library.createMany", {
        scope: "team",
        kind: "static",
        lines: "A, https://example.com/a\nB, https://example.com/b",
      }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "library.update": {
    run: (fx) =>
      fx.writerSession("library.update", {
        scope: "team",
        patch: { code: fx.published, destination_url: "https://example.com/page-held", name: "Renamed" },
      }),
    actions: ["code.updated", "code.change_requested"],
    beforeAfter: true,
  },
  "library.remove": {
    run: (fx) => fx.writerSession("library.remove", { scope: "team", kind: "dynamic", id: fx.draft }),
    actions: ["code.deleted"],
    beforeAfter: true,
  },
  "library.previewStyle": { none: "draws a preview, stores nothing" },
  "library.saveStyle": {
    run: (fx) =>
      fx.writerSession("library.saveStyle", {
        scope: "team",
        kind: "dynamic",
        id: fx.published,
        style: { foreground: "#1d4ed8" },
      }),
    actions: ["code.updated"],
    beforeAfter: true,
  },
  "libraryImport.check": { none: "checks rows, creates nothing" },
  "libraryImport.batch": {
    run: (fx) =>
      fx.writerSession("libraryImport.batch", {
        scope: "team",
        kind: "dynamic",
        file: "a".repeat(64),
        position: 0,
        rows: [{ line: 2, name: "Imported", url: "https://example.com/i" }],
      }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "webhooks.create": {
    run: (fx) => fx.admin("webhooks.create", { scope: "team", body: { url: HOOK, events: ["scan.created"] } }),
    actions: ["webhook.created"],
    beforeAfter: true,
  },
  "webhooks.update": {
    run: (fx) => fx.admin("webhooks.update", { scope: "team", body: { webhook_id: fx.hook, description: "changed" } }),
    actions: ["webhook.updated"],
    beforeAfter: true,
  },
  "webhooks.remove": {
    run: (fx) => fx.admin("webhooks.remove", { scope: "team", webhook_id: fx.hook }),
    actions: ["webhook.deleted"],
    beforeAfter: true,
  },
  "webhooks.test": { none: "sends a test event, changes no setting" },
  "domains.create": {
    run: (fx) => fx.admin("domains.create", { scope: "team", body: { domain: domainName() } }),
    actions: ["domain.added"],
    beforeAfter: true,
  },
  "domains.verify": {
    run: async (fx) => fx.admin("domains.verify", { scope: "team", domain: await domainWithRecord(fx) }),
    actions: ["domain.added", "domain.verified"],
    beforeAfter: true,
  },
  "domains.remove": {
    run: async (fx) => fx.admin("domains.remove", { scope: "team", domain: await domainWithRecord(fx) }),
    actions: ["domain.added", "domain.deleted"],
    beforeAfter: true,
  },
  "webhooks.resend": { none: "sends a delivery again, changes no setting" },
  "stylePresets.create": {
    run: (fx) => fx.admin("stylePresets.create", { scope: "team", body: { name: presetName(), style: {} } }),
    actions: ["style_preset.created"],
    beforeAfter: true,
  },
  "stylePresets.update": {
    run: async (fx) =>
      fx.admin("stylePresets.update", { scope: "team", body: { name: await savedPreset(fx), style: { margin: 5 } } }),
    actions: ["style_preset.created", "style_preset.updated"],
    beforeAfter: true,
  },
  "stylePresets.remove": {
    run: async (fx) => fx.admin("stylePresets.remove", { scope: "team", name: await savedPreset(fx) }),
    actions: ["style_preset.created", "style_preset.deleted"],
    beforeAfter: true,
  },

  "POST /qrcodes": {
    run: (fx) => http("POST", "/v1/qrcodes", { key: fx.writer.key, json: { name: "Q", url: "https://example.com/q" } }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "POST /qrcodes/batch": {
    run: (fx) =>
      http("POST", "/v1/qrcodes/batch", {
        key: fx.writer.key,
        json: { qrcodes: [{ name: "Q", url: "https://example.com/q" }] },
      }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "PATCH /qrcodes/{qr_id}": {
    run: (fx) => http("PATCH", `/v1/qrcodes/${fx.staticDraft}`, { key: fx.writer.key, json: { name: "S2" } }),
    actions: ["code.updated"],
    beforeAfter: true,
  },
  "PATCH /qrcodes/batch": {
    run: (fx) =>
      http("PATCH", "/v1/qrcodes/batch", {
        key: fx.writer.key,
        json: { qrcodes: [{ qr_id: fx.staticDraft, metadata: { order: "1" } }] },
      }),
    actions: ["code.updated"],
    beforeAfter: true,
  },
  "PATCH /dynqrcodes/batch": {
    run: (fx) =>
      http("PATCH", "/v1/dynqrcodes/batch", {
        key: fx.writer.key,
        json: { dynqrcodes: [{ code: fx.published, destination_url: "https://example.com/held" }] },
      }),
    actions: ["code.change_requested"],
    beforeAfter: true,
  },
  "DELETE /qrcodes/{qr_id}": {
    run: (fx) => http("DELETE", `/v1/qrcodes/${fx.staticDraft}`, { key: fx.writer.key }),
    actions: ["code.deleted"],
    beforeAfter: true,
  },
  "POST /qrcodes/batch-delete": {
    run: (fx) => http("POST", "/v1/qrcodes/batch-delete", { key: fx.writer.key, json: { ids: [fx.staticDraft] } }),
    actions: ["code.deleted"],
    beforeAfter: true,
  },
  "POST /dynqrcodes/batch-delete": {
    run: (fx) => http("POST", "/v1/dynqrcodes/batch-delete", { key: fx.team.adminKey, json: { ids: [fx.published] } }),
    actions: ["code.deleted"],
    beforeAfter: true,
  },
  "POST /dynqrcodes": {
    run: (fx) =>
      http("POST", "/v1/dynqrcodes", {
        key: fx.writer.key,
        json: { name: "D", destination_url: "https://example.com/d" },
      }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "POST /dynqrcodes/batch": {
    run: (fx) =>
      http("POST", "/v1/dynqrcodes/batch", {
        key: fx.writer.key,
        json: { dynqrcodes: [{ name: "D", destination_url: "https://example.com/d" }] },
      }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "PATCH /dynqrcodes/{code}": { run: asWriterHeld, actions: ["code.change_requested"], beforeAfter: true },
  "DELETE /dynqrcodes/{code}": {
    run: (fx) => http("DELETE", `/v1/dynqrcodes/${fx.published}`, { key: fx.team.adminKey }),
    actions: ["code.deleted"],
    beforeAfter: true,
  },
  "POST /bundle": {
    run: (fx) =>
      http("POST", "/v1/bundle", {
        key: fx.team.adminKey,
        body: '{"type": "bundle", "version": 1}\n{"type": "static", "url": "https://example.com/b", "name": "Moved in"}\n',
        headers: { "content-type": "application/x-ndjson" },
      }),
    actions: ["bundle.imported"],
  },
  "POST /webhooks": {
    run: (fx) => http("POST", "/v1/webhooks", { key: fx.team.adminKey, json: { url: HOOK, events: ["scan.created"] } }),
    actions: ["webhook.created"],
    beforeAfter: true,
  },
  "PATCH /webhooks/{webhook_id}": {
    run: (fx) => http("PATCH", `/v1/webhooks/${fx.hook}`, { key: fx.team.adminKey, json: { enabled: false } }),
    actions: ["webhook.updated"],
    beforeAfter: true,
  },
  "DELETE /webhooks/{webhook_id}": {
    run: (fx) => http("DELETE", `/v1/webhooks/${fx.hook}`, { key: fx.team.adminKey }),
    actions: ["webhook.deleted"],
    beforeAfter: true,
  },
  "POST /webhooks/{webhook_id}/test": { none: "sends a test event, changes no setting" },
  "POST /domains": {
    run: (fx) => http("POST", "/v1/domains", { key: fx.team.adminKey, json: { domain: domainName() } }),
    actions: ["domain.added"],
    beforeAfter: true,
  },
  "POST /domains/{domain}/verify": {
    run: async (fx) => http("POST", `/v1/domains/${await domainWithRecord(fx)}/verify`, { key: fx.team.adminKey }),
    actions: ["domain.added", "domain.verified"],
    beforeAfter: true,
  },
  "DELETE /domains/{domain}": {
    run: async (fx) => http("DELETE", `/v1/domains/${await domainWithRecord(fx)}`, { key: fx.team.adminKey }),
    actions: ["domain.added", "domain.deleted"],
    beforeAfter: true,
  },
  "POST /style-presets": {
    run: (fx) => savedPreset(fx),
    actions: ["style_preset.created"],
    beforeAfter: true,
  },
  "PATCH /style-presets/{name}": {
    run: async (fx) =>
      http("PATCH", presetPath(await savedPreset(fx)), { key: fx.team.adminKey, json: { style: { margin: 5 } } }),
    actions: ["style_preset.created", "style_preset.updated"],
    beforeAfter: true,
  },
  "DELETE /style-presets/{name}": {
    run: async (fx) => http("DELETE", presetPath(await savedPreset(fx)), { key: fx.team.adminKey }),
    actions: ["style_preset.created", "style_preset.deleted"],
    beforeAfter: true,
  },
  "POST /webhooks/{webhook_id}/deliveries/{delivery_id}/retry": { none: "sends a delivery again, changes no setting" },
  "POST /webhooks/{webhook_id}/rotate-secret": {
    run: (fx) => http("POST", `/v1/webhooks/${fx.hook}/rotate-secret`, { key: fx.team.adminKey }),
    actions: ["webhook.secret_rotated"],
  },
};

const isProcedure = (value: unknown): value is AnyTRPCProcedure =>
  typeof value === "function" && (value as AnyTRPCProcedure)._def?.procedure === true;
const proceduresOf = (record: object, prefix = ""): [string, AnyTRPCProcedure][] =>
  Object.entries(record).flatMap(([key, value]) =>
    isProcedure(value)
      ? [[`${prefix}${key}`, value] as [string, AnyTRPCProcedure]]
      : proceduresOf(value as object, `${prefix}${key}.`),
  );

/** What the service offers that can change something: the pages' mutations and the /v1 writes. */
const writes = () => [
  ...proceduresOf(appRouter._def.record)
    .filter(([, p]) => p._def.type === "mutation")
    .map(([name]) => name),
  ...V1_ROUTES.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`),
];

const lastEntryId = async (teamId: string) =>
  (await db.activityEntry.findFirst({ where: { teamId }, orderBy: { id: "desc" }, select: { id: true } }))?.id ?? "";

describe("every change to team data is on the team's activity log", () => {
  it("every mutation and /v1 write is covered here, by name", () => {
    const all = writes();
    const unknown = all.filter((name) => !(name in COVERAGE));
    assert.deepEqual(
      unknown,
      [],
      `not covered: ${unknown.join(", ")}: add each to COVERAGE, with the activity it writes or why it changes no team data`,
    );
    const stale = Object.keys(COVERAGE).filter((name) => !all.includes(name));
    assert.deepEqual(stale, [], "covered but no longer offered");
  });

  for (const [name, coverage] of Object.entries(COVERAGE)) {
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
});
