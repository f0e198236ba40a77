// Review covers changes to published team codes (contract Part 3): admins approve a writer's held
// change on the pages (it applies, /q moves, dynqrcode.updated leaves then, not before) or reject
// it with a reason (the writer sees it and is mailed it); the team's log says so. The holding:
// change-review-holds.integration.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { waitForMail } from "../mail-sink";
import { http, logIn } from "../helpers";
import { location, published, teamLog, updatedEvents, type Dyn } from "./change-review";

describe("review covers changes to published team codes: the decisions", () => {
  it("Approve change: the queue shows before and after; the change applies, /q moves, dynqrcode.updated leaves, the log says so", async () => {
    const { team, writer, code, admin } = await published();
    await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key: writer.key,
      json: { destination_url: "https://example.com/new", expires_at: null },
    });
    const writerPage = await logIn(writer.user.email);
    await assert.rejects(
      writerPage("team.reviewChange", { code, decision: "approve" }),
      /Only a team admin can do this/,
    );

    const queue = (await admin.query("team.pendingChanges")) as {
      code: string;
      by: string;
      before: unknown;
      after: unknown;
    }[];
    assert.deepEqual(
      queue.map((q) => [q.code, q.by, q.before, q.after]),
      [
        [
          code,
          writer.user.email,
          { destination_url: "https://example.com/approved", expires_at: null },
          { destination_url: "https://example.com/new", expires_at: null },
        ],
      ],
    );
    const eventsBefore = (await updatedEvents(code)).length;
    await admin("team.reviewChange", { code, decision: "approve" });
    assert.equal(await location(code), "https://example.com/new");
    const record = ((await http("GET", "/v1/dynqrcodes", { key: writer.key })).body as { dynqrcodes: Dyn[] })
      .dynqrcodes[0];
    assert.equal(record.destination_url, "https://example.com/new");
    assert.equal(record.pending_change, null);
    const events = await updatedEvents(code);
    assert.equal(events.length, eventsBefore + 1);
    assert.equal(JSON.parse(events.at(-1)!.payload).data.destination_url, "https://example.com/new");
    assert.deepEqual((await admin.query("team.pendingChanges")) as unknown[], []);
    const [approved] = await teamLog(team.id, "code.change_approved");
    assert.deepEqual(
      [approved.target, approved.actor, approved.before, approved.after, approved.requested_by],
      [
        code,
        team.admin.email,
        { destination_url: "https://example.com/approved" },
        { destination_url: "https://example.com/new" },
        writer.user.email,
      ],
    );
    // Decided once.
    await assert.rejects(
      admin("team.reviewChange", { code, decision: "approve" }),
      /No such pending change in your team/,
    );
  });

  it("Reject change: a reason is required; the change is dropped, the writer sees and is mailed the reason", async () => {
    const { team, writer, code, admin } = await published();
    await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key: writer.key,
      json: { destination_url: "https://example.com/spam" },
    });
    await assert.rejects(admin("team.reviewChange", { code, decision: "reject" }), /Write the reason for the writer/);
    await admin("team.reviewChange", { code, decision: "reject", reason: "That page is not ours" });
    assert.equal(await location(code), "https://example.com/approved");
    const record = ((await http("GET", "/v1/dynqrcodes", { key: writer.key })).body as { dynqrcodes: Dyn[] })
      .dynqrcodes[0];
    assert.equal(record.pending_change, null);
    assert.equal(record.destination_url, "https://example.com/approved");
    const mail = await waitForMail(writer.user.email, /was rejected/);
    assert.match(mail.text ?? "", /That page is not ours/);
    assert.match(mail.text ?? "", new RegExp(`destination_url of the code ${code}`));
    // On the team library, for the writer.
    const page = (await (await logIn(writer.user.email)).query("library.page", { scope: "team" })) as {
      items: { id: string; rejection: { reason: string; by: string; at: string; fields: unknown } | null }[];
    };
    const { at, ...rejection } = page.items.find((i) => i.id === code)!.rejection!;
    assert.deepEqual(rejection, {
      reason: "That page is not ours",
      by: team.admin.email,
      fields: { destination_url: "https://example.com/spam" },
    });
    assert.ok(Math.abs(Date.parse(at) - Date.now()) < 60_000);
    const [rejected] = await teamLog(team.id, "code.change_rejected");
    assert.deepEqual(
      [rejected.target, rejected.reason, rejected.requested_by, rejected.after],
      [code, "That page is not ours", writer.user.email, { destination_url: "https://example.com/spam" }],
    );
  });
});
