// Issue 39, point 12: a webhook's `data` is the record exactly as /v1 answers with it, and
// timestamps take one form per medium (README, "Timestamps"): epoch seconds in JSON (answers and
// `data`), ISO 8601 UTC in CSV and in the envelope's `timestamp` (the contract fixes that one).
// Against a real receiver (tests/webhook-receiver.ts).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { db } from "../../server/platform/db";
import { reviewDrafts } from "../../server/teams/draftReview";
import { http, logIn, makeTeam, personalKey, until } from "../helpers";
import { DELIVERY_WAIT_MS, receiver } from "../webhook-receiver";

type Payload = { type: string; timestamp: string; data: Record<string, unknown> };
type Listed = Record<string, unknown> & { code?: string; qr_id?: string; name: string };

const ISO_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const isEpochSeconds = (value: unknown) => Number.isInteger(value) && String(value).length === 10;

/** A record as GET /v1 lists it. */
async function listed(key: string, kind: "qrcodes" | "dynqrcodes", id: string): Promise<Listed | undefined> {
  const r = await http("GET", `/v1/${kind}?limit=100`, { key });
  assert.equal(r.status, 200, r.text);
  return (r.body as Record<string, Listed[]>)[kind].find((item) => (item.code ?? item.qr_id) === id);
}

describe("webhook payloads carry the record as /v1 answers with it", () => {
  let hooks: Awaited<ReturnType<typeof receiver>>;
  before(async () => {
    hooks = await receiver();
  });
  after(() => hooks.close());
  const payloads = (path: string) =>
    hooks.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as Payload);
  const eventOf = async (path: string, type: string, id: string) => {
    const find = () => payloads(path).find((p) => p.type === type && (p.data.code ?? p.data.qr_id) === id);
    await until(() => find() !== undefined, `${type} of ${id}`, DELIVERY_WAIT_MS);
    return find()!;
  };

  it("created, updated and deleted: data deep-equals the listed record; times in seconds, the envelope and CSV in ISO", async () => {
    const { key } = await personalKey();
    const events = ["qrcode.created", "qrcode.deleted", "dynqrcode.created", "dynqrcode.updated", "dynqrcode.deleted"];
    assert.equal(
      (await http("POST", "/v1/webhooks", { key, json: { url: `${hooks.base}/records`, events } })).status,
      201,
    );
    const stat = (
      (
        await http("POST", "/v1/qrcodes", {
          key,
          json: { url: "https://example.com/menu", name: "Menu", style: { foreground: "#112233" } },
        })
      ).body as { created: Listed[] }
    ).created[0];
    const dyn = (
      (
        await http("POST", "/v1/dynqrcodes", {
          key,
          json: { destination_url: "https://example.com/a", name: "A", style: { margin: 2 } },
        })
      ).body as { created: Listed[] }
    ).created[0];
    const code = dyn.code!;

    const staticCreated = await eventOf("/records", "qrcode.created", stat.qr_id!);
    assert.deepEqual(staticCreated.data, await listed(key, "qrcodes", stat.qr_id!));
    assert.deepEqual(staticCreated.data, stat, "and the create's answer");
    const dynCreated = await eventOf("/records", "dynqrcode.created", code);
    assert.deepEqual(dynCreated.data, await listed(key, "dynqrcodes", code));

    // Every optional field set, so that the rules and the password mark are compared too.
    const patch = {
      name: "A2",
      expires_at: Math.floor(Date.now() / 1000) + 86_400,
      targets: [{ url: "https://example.com/ios", os: "iOS" }],
      utm: { source: "print" },
      password: "open sesame",
    };
    const patched = await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: patch });
    assert.equal(patched.status, 200, patched.text);
    const updated = await eventOf("/records", "dynqrcode.updated", code);
    const afterPatch = await listed(key, "dynqrcodes", code);
    assert.deepEqual(updated.data, afterPatch);
    assert.deepEqual(updated.data, patched.body, "and the PATCH's answer");
    assert.equal(updated.data.password_protected, true);

    for (const e of [staticCreated, dynCreated, updated]) {
      assert.match(e.timestamp, ISO_SECONDS, "the envelope: ISO 8601 UTC, whole seconds");
      assert.ok(
        isEpochSeconds(e.data.created_at) && isEpochSeconds(e.data.updated_at),
        `data: epoch seconds (${e.data.created_at}, ${e.data.updated_at})`,
      );
      assert.ok(Math.abs(Date.parse(e.timestamp) / 1000 - (e.data.updated_at as number)) < 60);
    }
    // CSV: the same instants, ISO 8601 UTC.
    const csv = parse((await http("GET", "/v1/dynqrcodes/export", { key })).text, { columns: true }) as Record<
      string,
      string
    >[];
    const row = csv.find((r) => r.code === code)!;
    assert.match(row.created_at, ISO_SECONDS);
    assert.equal(
      row.created_at,
      new Date((updated.data.created_at as number) * 1000).toISOString().replace(".000Z", "Z"),
    );
    assert.equal(
      row.updated_at,
      new Date((updated.data.updated_at as number) * 1000).toISOString().replace(".000Z", "Z"),
    );
    assert.equal(row.expires_at, new Date(patch.expires_at * 1000).toISOString().replace(".000Z", "Z"));

    // Deleted: the record as it was listed just before.
    assert.equal((await http("DELETE", `/v1/dynqrcodes/${code}`, { key })).status, 200);
    assert.deepEqual((await eventOf("/records", "dynqrcode.deleted", code)).data, afterPatch);
    const staticBefore = await listed(key, "qrcodes", stat.qr_id!);
    assert.equal((await http("DELETE", `/v1/qrcodes/${stat.qr_id}`, { key })).status, 200);
    assert.deepEqual((await eventOf("/records", "qrcode.deleted", stat.qr_id!)).data, staticBefore);
  });

  it("a style saved in the page's editor is announced: dynqrcode.updated with the record as listed, the new style in it", async () => {
    const { key, user } = await personalKey();
    assert.equal(
      (await http("POST", "/v1/webhooks", { key, json: { url: `${hooks.base}/style`, events: ["dynqrcode.updated"] } }))
        .status,
      201,
    );
    const { code } = (
      (
        await http("POST", "/v1/dynqrcodes", {
          key,
          json: { destination_url: "https://example.com/poster", name: "Poster" },
        })
      ).body as { created: Listed[] }
    ).created[0];
    const page = await logIn(user.email);
    await page("library.saveStyle", {
      scope: "personal",
      kind: "dynamic",
      id: code,
      style: { foreground: "#1d4ed8", module_shape: "dot" },
    });
    const updated = await eventOf("/style", "dynqrcode.updated", code!);
    assert.deepEqual(updated.data.style, { foreground: "#1d4ed8", module_shape: "dot" });
    assert.deepEqual(updated.data, await listed(key, "dynqrcodes", code!));
    // A style the decode check refuses changes nothing and announces nothing: the next event is the next save's.
    await assert.rejects(
      page("library.saveStyle", {
        scope: "personal",
        kind: "dynamic",
        id: code,
        style: { foreground: "#ffffff", background: "#ffffff" },
      }),
      /unreadable/,
    );
    await page("library.saveStyle", { scope: "personal", kind: "dynamic", id: code, style: { margin: 2 } });
    const ofCode = () => payloads("/style").filter((p) => p.data.code === code);
    await until(() => ofCode().length >= 2, "the second style's event", DELIVERY_WAIT_MS);
    assert.deepEqual(
      ofCode().map((p) => p.data.style),
      [{ foreground: "#1d4ed8", module_shape: "dot" }, { margin: 2 }],
    );
  });

  it("draft.approved carries the record as listed once approved (its new updated_at); draft.rejected the record as it was", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    assert.equal(
      (
        await http("POST", "/v1/webhooks", {
          key: team.adminKey,
          json: { url: `${hooks.base}/review`, events: ["draft.approved", "draft.rejected"] },
        })
      ).status,
      201,
    );
    const drafts = (
      (
        await http("POST", "/v1/dynqrcodes/batch", {
          key: writer.key,
          json: {
            dynqrcodes: [
              { destination_url: "https://example.com/yes", name: "Yes" },
              { destination_url: "https://example.com/no", name: "No" },
            ],
          },
        })
      ).body as { created: Listed[] }
    ).created;
    const stat = (
      (
        await http("POST", "/v1/qrcodes", {
          key: writer.key,
          json: { url: "https://example.com/s", name: "Static draft" },
        })
      ).body as { created: Listed[] }
    ).created[0];
    // Written an hour ago, as if reviewed later: the approval's updated_at is another second.
    const hourAgo = new Date(Date.now() - 3600_000);
    await db.dynamicCode.updateMany({
      where: { code: { in: drafts.map((d) => d.code!) } },
      data: { updatedAt: hourAgo },
    });
    await db.staticCode.update({ where: { id: stat.qr_id! }, data: { updatedAt: hourAgo } });
    const rejectedBefore = await listed(team.adminKey, "dynqrcodes", drafts[1].code!);
    // The same domain function as the page's Approve and Reject buttons.
    await reviewDrafts(team.admin.id, "approve", [
      { kind: "dynamic", id: drafts[0].code! },
      { kind: "static", id: stat.qr_id! },
    ]);
    await reviewDrafts(team.admin.id, "reject", [{ kind: "dynamic", id: drafts[1].code! }], "Not needed");

    const approved = await eventOf("/review", "draft.approved", drafts[0].code!);
    const approvedListed = await listed(team.adminKey, "dynqrcodes", drafts[0].code!);
    assert.equal(approvedListed!.status, "active");
    assert.ok(
      (approvedListed!.updated_at as number) > hourAgo.getTime() / 1000 + 60,
      "the approval changed updated_at",
    );
    assert.deepEqual(approved.data, approvedListed);
    assert.deepEqual(
      (await eventOf("/review", "draft.approved", stat.qr_id!)).data,
      await listed(team.adminKey, "qrcodes", stat.qr_id!),
    );
    assert.deepEqual((await eventOf("/review", "draft.rejected", drafts[1].code!)).data, rejectedBefore);
  });
});
