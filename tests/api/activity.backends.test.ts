// The activity log (contract: "Accounts for real"): an entry with actor and target for each
// event there is today, never a client address; the account's own log and the team's (admins
// only), newest first and paged, and as CSV; append-only in the database; the 1-year sweep.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pg from "pg";
import { ACTIVITY_PAGE_SIZE, recordActivity, sweepActivity } from "../../server/activity";
import { now } from "../../server/platform/clock";
import { db } from "../../server/platform/db";
import { env } from "../../server/platform/env";
import { timeOrderedId } from "../../server/platform/ids";
import { BASE_URL, CLIENT_ADDRESS, http, logIn, makeTeam, makeUser, TEST_PASSWORD } from "../helpers";

const CHROME_ON_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const DAY_MS = 24 * 3600 * 1000;

type Entry = {
  action: string;
  actorLabel: string;
  target: string | null;
  detail: string | null;
  teamId: string | null;
  userId: string | null;
};
const entries = (where: { userId?: string; teamId?: string }): Promise<Entry[]> =>
  db.activityEntry.findMany({ where, orderBy: { id: "asc" } });
const summary = (list: Entry[]) => list.map((e) => [e.action, e.actorLabel, e.target]);
type Page = {
  entries: { id: string; action: string; actor: string; target: string | null; details: string }[];
  next_cursor: string | null;
};

describe("activity log", () => {
  it("log-ins with browser, OS and country; failed log-ins on the account's log; no address anywhere", async () => {
    const user = await makeUser("pro");
    await logIn(user.email, TEST_PASSWORD, undefined, {
      headers: { "user-agent": CHROME_ON_LINUX, "cf-ipcountry": "DE" },
    });
    await assert.rejects(logIn(user.email, "wrong-password-1"), /CredentialsSignin/);
    const unknown = `nobody-${Date.now()}@test.example`;
    await assert.rejects(logIn(unknown, "wrong-password-1"), /CredentialsSignin/);
    const log = await entries({ userId: user.id });
    assert.deepEqual(summary(log), [
      ["login", user.email, null],
      ["login.failed", user.email, null],
    ]);
    assert.deepEqual(JSON.parse(log[0].detail!), { browser: "Chrome", os: "Linux", country: "DE" });
    assert.equal(JSON.parse(log[1].detail!).reason, "password");
    assert.equal(log[0].teamId, null);
    // An unknown email is on no log; and no entry of the whole table holds a client address
    // (this process's, or the other files': the addresses of webhook URLs they made aside).
    const all = JSON.stringify(await db.activityEntry.findMany());
    assert.ok(!all.includes(unknown));
    assert.ok(!all.includes(CLIENT_ADDRESS));
    assert.doesNotMatch(all.replace(/https?:\/\/[^"\\]*/g, ""), /127\.\d+\.\d+\.\d+|::1\b|::ffff:|"address"|"ip"/);
  });

  it("keys: a personal key on the account's log; a business key on the team's and its holder's", async () => {
    const user = await makeUser("pro");
    const session = await logIn(user.email);
    const { summary: key } = (await session("keys.generatePersonal")) as { summary: { display: string } };
    await session("keys.revokePersonal");
    assert.deepEqual(summary((await entries({ userId: user.id })).filter((e) => e.action.startsWith("key."))), [
      ["key.generated", user.email, key.display],
      ["key.revoked", user.email, key.display],
    ]);

    const team = await makeTeam();
    const writer = await team.addWriter();
    const admin = await logIn(team.admin.email);
    const overview = (await admin.query("team.overview")) as { keys: { id: string; email: string; display: string }[] };
    const writersKey = overview.keys.find((k) => k.email === writer.user.email)!;
    await admin("team.revokeKey", { keyId: writersKey.id });
    const teamLog = await entries({ teamId: team.id });
    assert.deepEqual(summary(teamLog.filter((e) => e.action.startsWith("key."))), [
      ["key.generated", team.admin.email, overview.keys.find((k) => k.email === team.admin.email)!.display],
      ["key.generated", writer.user.email, writersKey.display],
      ["key.revoked", team.admin.email, writersKey.display],
    ]);
    // The writer's own log shows both events of their key, the revocation by the admin.
    assert.deepEqual(summary((await entries({ userId: writer.user.id })).filter((e) => e.action.startsWith("key."))), [
      ["key.generated", writer.user.email, writersKey.display],
      ["key.revoked", team.admin.email, writersKey.display],
    ]);
    assert.ok(!JSON.stringify(teamLog).includes(writer.key), "never a key");
  });

  it("the team's log: role changes and removals, approvals and rejections, deleted codes, webhook changes", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const viewer = await team.addMember("viewer");
    const admin = await logIn(team.admin.email);
    await admin("team.setRole", { userId: viewer.id, role: "writer" });
    await admin("team.setRole", { userId: writer.user.id, role: "viewer" }); // revokes the writer's key
    await admin("team.removeMember", { userId: viewer.id });

    const created = await http("POST", "/v1/dynqrcodes/batch", {
      key: team.adminKey,
      json: {
        dynqrcodes: ["Approved", "Rejected", "Deleted"].map((name) => ({
          name,
          destination_url: "https://example.com/",
        })),
      },
    });
    assert.equal(created.status, 201);
    const [approved, rejected, deleted] = (created.body as { created: { code: string }[] }).created.map((d) => d.code);
    await admin("team.approve", { kind: "dynamic", id: approved });
    await admin("team.reject", { kind: "dynamic", id: rejected, reason: "Not needed" });
    assert.equal((await http("DELETE", `/v1/dynqrcodes/${deleted}`, { key: team.adminKey })).status, 200);

    const hook = await http("POST", "/v1/webhooks", {
      key: team.adminKey,
      json: { url: "https://93.184.215.14/hooks", events: ["dynqrcode.created"] },
    });
    assert.equal(hook.status, 201);
    const { webhook_id } = (hook.body as { webhook: { webhook_id: string } }).webhook;
    assert.equal(
      (
        await http("PATCH", `/v1/webhooks/${webhook_id}`, {
          key: team.adminKey,
          json: { enabled: false, description: "paused" },
        })
      ).status,
      200,
    );
    assert.equal((await http("DELETE", `/v1/webhooks/${webhook_id}`, { key: team.adminKey })).status, 200);

    const log = (await entries({ teamId: team.id })).filter((e) => !e.action.startsWith("key.generated"));
    const by = team.admin.email;
    assert.deepEqual(summary(log), [
      ["team.created", by, `Team ${by}`],
      ["member.role_changed", by, viewer.email],
      ["member.role_changed", by, writer.user.email],
      ["key.revoked", by, log.find((e) => e.action === "key.revoked")!.target],
      ["member.removed", by, viewer.email],
      ["code.created", by, approved],
      ["code.created", by, rejected],
      ["code.created", by, deleted],
      ["draft.approved", by, approved],
      ["draft.rejected", by, rejected],
      ["code.deleted", by, deleted],
      ["webhook.created", by, "https://93.184.215.14/hooks"],
      ["webhook.updated", by, "https://93.184.215.14/hooks"],
      ["webhook.deleted", by, "https://93.184.215.14/hooks"],
    ]);
    const detail = (action: string) => JSON.parse(log.find((e) => e.action === action)!.detail!);
    assert.deepEqual(JSON.parse(log[1].detail!), { from: "viewer", to: "writer" });
    assert.deepEqual(detail("member.removed"), { role: "writer" });
    assert.deepEqual(detail("draft.approved"), {
      name: "Approved",
      kind: "dynamic",
      before: { status: "draft" },
      after: { status: "active" },
    });
    assert.deepEqual(detail("draft.rejected"), {
      name: "Rejected",
      kind: "dynamic",
      before: { status: "draft" },
      after: null,
      reason: "Not needed",
    });
    const live = {
      name: "Deleted",
      destination_url: "https://example.com/",
      status: "draft",
      style: {},
      password_protected: false,
    };
    assert.deepEqual(detail("code.created"), {
      name: "Approved",
      kind: "dynamic",
      via: "API",
      before: null,
      after: { ...live, name: "Approved" },
    });
    assert.deepEqual(detail("code.deleted"), {
      name: "Deleted",
      kind: "dynamic",
      via: "API",
      before: live,
      after: null,
    });
    assert.deepEqual(detail("webhook.updated"), {
      webhook_id,
      changed: "description, enabled",
      before: { description: "", enabled: true },
      after: { description: "paused", enabled: false },
    });
    // Team events are the team's: none lands on a member's own log.
    assert.ok(log.every((e) => e.userId === null || e.action === "key.revoked"));
  });

  it("a personal library's deletions and webhooks are not logged", async () => {
    const user = await makeUser("pro");
    const session = await logIn(user.email);
    const { key } = (await session("keys.generatePersonal")) as { key: string };
    const created = await http("POST", "/v1/qrcodes", { key, json: { name: "Gone", url: "https://example.com/" } });
    const { qr_id } = (created.body as { created: { qr_id: string }[] }).created[0];
    assert.equal((await http("DELETE", `/v1/qrcodes/${qr_id}`, { key })).status, 200);
    assert.deepEqual(
      (await entries({ userId: user.id })).map((e) => e.action),
      ["login", "key.generated"],
    );
  });

  it("pages: the account's own log newest first, 20 at a time; the team's for admins only", async () => {
    const user = await makeUser("pro");
    const actor = { id: user.id, label: user.email };
    await recordActivity(
      Array.from({ length: 24 }, (_, i) => ({
        userId: user.id,
        actor,
        action: "login" as const,
        detail: { browser: `B${i}` },
      })),
    );
    const session = await logIn(user.email); // the 25th, newest
    const first = (await session.query("activity.page", { scope: "account" })) as Page;
    assert.equal(first.entries.length, ACTIVITY_PAGE_SIZE);
    assert.equal(first.entries[1].details, "browser: B23");
    assert.deepEqual(
      [...first.entries].sort((a, b) => (a.id < b.id ? 1 : -1)),
      first.entries,
      "newest first",
    );
    const second = (await session.query("activity.page", { scope: "account", cursor: first.next_cursor })) as Page;
    assert.equal(second.entries.length, 5);
    assert.equal(second.next_cursor, null);
    assert.equal(second.entries[4].details, "browser: B0");

    const team = await makeTeam();
    const writer = await team.addWriter();
    const viewer = await team.addMember("viewer");
    for (const member of [writer.user, viewer]) {
      const s = await logIn(member.email);
      await assert.rejects(
        s.query("activity.page", { scope: "team" }),
        /Only a team admin can see the team's activity/,
      );
      const csv = await s.get("/activity/team.csv");
      assert.equal(csv.status, 403);
    }
    const admin = (await (await logIn(team.admin.email)).query("activity.page", { scope: "team" })) as Page;
    assert.deepEqual(
      admin.entries.map((e) => [e.action, e.actor]),
      [
        ["key.generated", writer.user.email],
        ["key.generated", team.admin.email],
        ["team.created", team.admin.email],
      ],
    );
  });

  it("CSV downloads: time, actor, action, target, details, newest first", async () => {
    const team = await makeTeam();
    const session = await logIn(team.admin.email, TEST_PASSWORD, undefined, {
      headers: { "user-agent": CHROME_ON_LINUX, "cf-ipcountry": "FR" },
    });
    const own = await session.get("/activity/account.csv");
    assert.equal(own.status, 200);
    assert.equal(own.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.match(
      own.headers.get("content-disposition") ?? "",
      /^attachment; filename="activity-account-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await own.text()).trimEnd().split("\r\n");
    assert.equal(lines[0], "time,actor,action,target,details");
    assert.match(
      lines[1],
      new RegExp(
        `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z,${team.admin.email},login,,browser: Chrome; os: Linux; country: FR$`,
      ),
    );
    assert.match(lines[2], /,key\.generated,qrb_/);
    const teamCsv = await (await session.get("/activity/team.csv")).text();
    assert.match(teamCsv.split("\r\n")[1], /,key\.generated,qrb_\w{4}…\w{4},scope: business$/);
    assert.match(teamCsv.split("\r\n")[2], /,team\.created,Team [^,]+,"before: —; after: {""name"":""Team [^"]+""}"$/);
    assert.equal((await session.get("/activity/other.csv")).status, 404);
    assert.equal((await fetch(new URL("/activity/account.csv", BASE_URL))).status, 401);
  });

  it("entries cannot be changed (and, on PostgreSQL, not deleted within a year) by the database itself", async () => {
    const user = await makeUser("pro");
    await recordActivity({ userId: user.id, actor: { id: user.id, label: user.email }, action: "password.changed" });
    const entry = await db.activityEntry.findFirstOrThrow({ where: { userId: user.id } });
    if (env.backend === "sqlite") {
      await assert.rejects(
        db.$executeRawUnsafe(`UPDATE "ActivityEntry" SET "action" = 'login' WHERE "id" = '${entry.id}'`),
        /append-only/,
      );
      return;
    }
    const client = new pg.Client({ connectionString: env.databaseUrl });
    await client.connect();
    try {
      await assert.rejects(
        client.query(`UPDATE "ActivityEntry" SET "action" = 'login' WHERE "id" = $1`, [entry.id]),
        /append-only \(UPDATE refused\)/,
      );
      await assert.rejects(
        client.query(`DELETE FROM "ActivityEntry" WHERE "id" = $1`, [entry.id]),
        /append-only \(DELETE refused\)/,
      );
      const { rows } = await client.query(`SELECT "action" FROM "ActivityEntry" WHERE "id" = $1`, [entry.id]);
      assert.deepEqual(rows, [{ action: "password.changed" }]);
    } finally {
      await client.end();
    }
  });

  it("the retention sweep removes entries older than a year, and only those", async () => {
    const user = await makeUser("pro");
    const at = (daysAgo: number) => ({
      id: timeOrderedId("act"),
      userId: user.id,
      actorId: user.id,
      actorLabel: user.email,
      action: "login",
      createdAt: new Date(now().getTime() - daysAgo * DAY_MS),
    });
    const [old, young] = [at(400), at(200)];
    await db.activityEntry.createMany({ data: [old, young] });
    assert.ok((await sweepActivity()) >= 1);
    assert.deepEqual(
      (await db.activityEntry.findMany({ where: { userId: user.id } })).map((e) => e.id),
      [young.id],
    );
    if (env.backend === "sqlite") {
      // 170 days later the 200-day-old entry is past the year too (PostgreSQL's trigger reads the database's clock).
      await sweepActivity(new Date(now().getTime() + 170 * DAY_MS));
      assert.equal(await db.activityEntry.count({ where: { userId: user.id } }), 0);
    }
  });
});
