// The activity log records every change to team data (issue 37, point 10). The pages' tRPC
// mutations are read from the router itself and the /v1 writes from the route table: each is
// either run against a team, and must add an entry to the team's log (a change to a code, a
// webhook or the team with its before and after), or named with the reason it changes no team
// data. A mutation or write added without either fails the first test, by name. This file runs
// the pages' mutations; the /v1 writes (tests/api/activity-v1-writes.ts) run in
// activity-v1.integration.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AnyTRPCProcedure } from "@trpc/server";
import { appRouter } from "../../server/api/root";
import { V1_ROUTES } from "../../server/api/routes";
import { db } from "../../server/platform/db";
import { logIn, makeUser, TEST_PASSWORD } from "../helpers";
import {
  ACCOUNT,
  asWriterHeld,
  domainName,
  domainWithRecord,
  HOOK,
  inviteAndToken,
  itLogs,
  lastEntryId,
  presetName,
  savedPreset,
  type Coverage,
} from "./activity-log";
import { V1_WRITES } from "./activity-v1-writes";

/** Every mutation of the pages (by its path): how it reaches the team's log, or why it does not. */
const PAGE_MUTATIONS: Record<string, Coverage> = {
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
};

/** Every mutation of the pages and every /v1 write. */
const COVERAGE = { ...PAGE_MUTATIONS, ...V1_WRITES };

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

describe("every change to team data is on the team's activity log", () => {
  it("every mutation and /v1 write is covered here, by name", () => {
    const all = writes();
    const unknown = all.filter((name) => !(name in COVERAGE));
    assert.deepEqual(
      unknown,
      [],
      `not covered: ${unknown.join(", ")}: add each to PAGE_MUTATIONS or V1_WRITES (tests/api/activity-v1-writes.ts), with the activity it writes or why it changes no team data`,
    );
    const stale = Object.keys(COVERAGE).filter((name) => !all.includes(name));
    assert.deepEqual(stale, [], "covered but no longer offered");
  });

  itLogs(PAGE_MUTATIONS);
});
