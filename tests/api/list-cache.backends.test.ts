// List pages are kept in memory under the library's version, which database triggers raise
// with every change to the library's codes. These tests change a library through every path
// (this server's API; the web app's domain functions and plain SQL from this test process,
// which stand for any other instance) and check that the very next list shows the change.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { reviewDrafts } from "../../server/teams/draftReview";
import { actorFor } from "../../server/library/libraryItems";
import { saveStyle, updateItem } from "../../server/library/libraryChanges";
import { http, makeTeam, personalKey } from "../helpers";

type Dyn = { code: string; name: string; status: string; destination_url: string; style: Record<string, unknown> };
type Static = { qr_id: string; name: string };

const dynamicList = async (key: string, query = "") =>
  (await http("GET", `/v1/dynqrcodes${query}`, { key })).body as { dynqrcodes: Dyn[]; next_cursor: string | null };
const staticList = async (key: string) =>
  ((await http("GET", "/v1/qrcodes", { key })).body as { qrcodes: Static[] }).qrcodes;
const names = (records: { name: string }[]) => records.map((r) => r.name);

describe("list pages follow every change to the library", () => {
  it("dynamic codes: the API's create, PATCH and DELETE, the web library's edit and style, and another process's SQL", async () => {
    const { user, key } = await personalKey();
    const created = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: { dynqrcodes: [1, 2, 3].map((i) => ({ destination_url: `https://example.com/${i}`, name: `Code ${i}` })) },
    });
    assert.equal(created.status, 201);
    const [one, two, three] = (created.body as { created: Dyn[] }).created;
    // Twice: the second answer comes from memory, and is the same.
    assert.deepEqual(names((await dynamicList(key)).dynqrcodes), ["Code 3", "Code 2", "Code 1"]);
    assert.deepEqual(names((await dynamicList(key)).dynqrcodes), ["Code 3", "Code 2", "Code 1"]);
    const firstPage = await dynamicList(key, "?limit=2");
    assert.deepEqual(names(firstPage.dynqrcodes), ["Code 3", "Code 2"]);

    await http("PATCH", `/v1/dynqrcodes/${two.code}`, { key, json: { name: "Renamed by PATCH", status: "paused" } });
    const afterPatch = (await dynamicList(key)).dynqrcodes.find((d) => d.code === two.code)!;
    assert.deepEqual([afterPatch.name, afterPatch.status], ["Renamed by PATCH", "paused"]);

    await http("DELETE", `/v1/dynqrcodes/${three.code}`, { key });
    assert.deepEqual(names((await dynamicList(key, "?limit=2")).dynqrcodes), ["Renamed by PATCH", "Code 1"]);

    const actor = await actorFor(user.id, "personal", null);
    await updateItem(actor, { code: one.code, destination_url: "https://example.org/from-the-web" });
    assert.equal(
      (await dynamicList(key)).dynqrcodes.find((d) => d.code === one.code)!.destination_url,
      "https://example.org/from-the-web",
    );
    await saveStyle(actor, "dynamic", one.code, { foreground: "#112233", background: "#ffffff" });
    assert.equal((await dynamicList(key)).dynqrcodes.find((d) => d.code === one.code)!.style.foreground, "#112233");

    await db.$executeRawUnsafe(`UPDATE "DynamicCode" SET "name" = 'Renamed elsewhere' WHERE "code" = '${one.code}'`);
    assert.equal((await dynamicList(key)).dynqrcodes.find((d) => d.code === one.code)!.name, "Renamed elsewhere");
    await db.dynamicCode.updateMany({ where: { code: two.code }, data: { deletedAt: new Date() } });
    assert.deepEqual(names((await dynamicList(key)).dynqrcodes), ["Renamed elsewhere"]);
  });

  it("static codes: create and delete through the API and another process's SQL", async () => {
    const { key } = await personalKey();
    const made = await http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com/s", name: "Static 1" } });
    const { qr_id } = (made.body as { created: Static[] }).created[0];
    assert.deepEqual(names(await staticList(key)), ["Static 1"]);
    await db.staticCode.update({ where: { id: qr_id }, data: { name: "Static renamed" } });
    assert.deepEqual(names(await staticList(key)), ["Static renamed"]);
    await http("DELETE", `/v1/qrcodes/${qr_id}`, { key });
    assert.deepEqual(await staticList(key), []);
  });

  it("a team library: a writer's draft, the admin's approval and rejection, every member's list", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const draft = async (name: string) =>
      (
        (
          await http("POST", "/v1/dynqrcodes", {
            key: writer.key,
            json: { destination_url: "https://example.com/t", name },
          })
        ).body as { created: Dyn[] }
      ).created[0];
    assert.deepEqual((await dynamicList(team.adminKey)).dynqrcodes, []);
    const kept = await draft("Kept");
    const dropped = await draft("Dropped");
    assert.deepEqual(
      (await dynamicList(team.adminKey)).dynqrcodes.map((d) => [d.name, d.status]),
      [
        ["Dropped", "draft"],
        ["Kept", "draft"],
      ],
    );
    assert.deepEqual(names((await dynamicList(writer.key)).dynqrcodes), ["Dropped", "Kept"]);
    await reviewDrafts(team.admin.id, "approve", [{ kind: "dynamic", id: kept.code }]);
    await reviewDrafts(team.admin.id, "reject", [{ kind: "dynamic", id: dropped.code }], "Not needed");
    for (const key of [team.adminKey, writer.key]) {
      assert.deepEqual(
        (await dynamicList(key)).dynqrcodes.map((d) => [d.name, d.status]),
        [["Kept", "active"]],
      );
    }
  });
});
