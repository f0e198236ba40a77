// Style presets, the library's brand kits (docs/STYLE-PRESETS.md): /v1/style-presets and
// `style_preset` on every create and PATCH, single and batch. A name's uniqueness is the
// database's (a unique index per library), so this runs on both backends.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { http, makeTeam, personalKey } from "../helpers";
import { decodePng } from "../qr-decode";

type Preset = { name: string; style: Record<string, unknown>; created_at: number; updated_at: number };
type Stat = { qr_id: string; url: string; style: Record<string, unknown> };
type Dyn = { code: string; short_url: string; style: Record<string, unknown> };

const LOGO = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#0b3d91"/></svg>',
).toString("base64")}`;
const BRAND = {
  foreground: "#0b3d91",
  background: "#fffdf5",
  module_shape: "rounded",
  finder_shape: "dot",
  logo: LOGO,
  frame: { text: "Scan me", color: "#0b3d91" },
};
const fresh = (stem = "Kit") => `${stem} ${randomBytes(4).toString("hex")}`;
const path = (name: string) => `/v1/style-presets/${encodeURIComponent(name)}`;

async function saved(key: string, name = fresh(), style: object = BRAND): Promise<Preset> {
  const r = await http("POST", "/v1/style-presets", { key, json: { name, style } });
  assert.equal(r.status, 201, r.text);
  return (r.body as { style_preset: Preset }).style_preset;
}
const createStatic = (key: string, body: object) =>
  http("POST", "/v1/qrcodes", { key, json: { name: "Menu", url: "https://example.com/menu", ...body } });
const png = async (key: string, route: string) => {
  const r = await http("GET", `${route}/image?format=png&size=256`, { key });
  assert.equal(r.status, 200, r.text);
  return r.bytes;
};

describe("style presets on /v1", () => {
  it("POST 201, GET one and the list by name, PATCH renames and replaces the style, DELETE 200 then 404", async () => {
    const { key } = await personalKey();
    const name = fresh("Brand blue");
    const created = await saved(key, name);
    assert.deepEqual(Object.keys(created).sort(), ["created_at", "name", "style", "updated_at"]);
    assert.deepEqual(created.style, BRAND);
    assert.ok(Math.abs(created.created_at - Date.now() / 1000) < 60);
    const other = await saved(key, "A first", { foreground: "#222222" });
    const one = await http("GET", path(name), { key });
    assert.deepEqual([one.status, one.body], [200, { style_preset: created }]);
    const list = (await http("GET", "/v1/style-presets", { key })).body as { style_presets: Preset[] };
    assert.deepEqual(
      list.style_presets.map((p) => p.name),
      [other.name, name],
    );

    const renamed = fresh("Brand navy");
    const patched = await http("PATCH", path(name), {
      key,
      json: { new_name: renamed, style: { foreground: "#123456" } },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual((patched.body as { style_preset: Preset }).style_preset.style, { foreground: "#123456" });
    assert.equal((await http("GET", path(name), { key })).status, 404);
    const empty = await http("PATCH", path(renamed), { key, json: {} });
    assert.deepEqual([empty.status, empty.body], [400, { error: "Send at least one of new_name, style" }]);

    const gone = await http("DELETE", path(renamed), { key });
    assert.deepEqual([gone.status, gone.body], [200, { name: renamed, deleted: true }]);
    assert.equal((await http("DELETE", path(renamed), { key })).status, 404);
    assert.equal(await db.stylePreset.count({ where: { name: renamed } }), 0);
  });

  it("a name is unique in its library (409), free in another; a renaming onto a taken name is 409 too", async () => {
    const { key } = await personalKey();
    const { key: otherKey } = await personalKey();
    const name = fresh();
    await saved(key, name);
    const again = await http("POST", "/v1/style-presets", { key, json: { name, style: {} } });
    assert.deepEqual([again.status, again.body], [409, { error: `Style preset already exists: ${name}` }]);
    await saved(otherKey, name, { foreground: "#333333" });
    const second = await saved(key);
    const clash = await http("PATCH", path(second.name), { key, json: { new_name: name } });
    assert.deepEqual([clash.status, clash.body], [409, { error: `Style preset already exists: ${name}` }]);
    // Case-sensitive: another spelling is another preset.
    await saved(key, name.toUpperCase());
  });

  it("refuses bad names and styles with the code's own messages, huge bodies included, and stores nothing", async () => {
    const { key } = await personalKey();
    const refused = async (body: unknown, error: RegExp) => {
      const r = await http("POST", "/v1/style-presets", { key, json: body });
      assert.equal(r.status, 400, r.text);
      assert.match((r.body as { error: string }).error, error);
    };
    await refused({ name: "", style: {} }, /^name must be 1 to 64 characters/);
    await refused({ name: "a/b", style: {} }, /^name must be 1 to 64 characters/);
    await refused({ name: "x".repeat(65), style: {} }, /^name must be 1 to 64 characters/);
    await refused({ name: "x".repeat(1_000_000), style: {} }, /^name must be 1 to 64 characters/);
    await refused({ name: "Kit", style: { foreground: "#ffffff" } }, /^style makes the code unreadable: contrast/);
    await refused({ name: "Kit", style: { colour: "#000000" } }, /^style has an unknown field: colour/);
    await refused({ name: "Kit", style: { logo: "x".repeat(1_000_000) } }, /^style.logo must be at most 64 KiB/);
    await refused({ name: "Kit" }, /style/);
    await refused({ name: "Kit", style: {}, extra: 1 }, /^Unknown field: extra/);
    assert.deepEqual((await http("GET", "/v1/style-presets", { key })).body, { style_presets: [] });
  });

  it("a static create with style_preset draws exactly the image of the same style sent explicitly", async () => {
    const { key } = await personalKey();
    const { name } = await saved(key);
    const withPreset = await createStatic(key, { style_preset: name });
    assert.equal(withPreset.status, 201, withPreset.text);
    const viaPreset = (withPreset.body as { created: Stat[] }).created[0];
    assert.deepEqual(viaPreset.style, BRAND);
    const explicit = (await createStatic(key, { style: BRAND })).body as { created: Stat[] };
    const plain = (await createStatic(key, {})).body as { created: Stat[] };
    const image = await png(key, `/v1/qrcodes/${viaPreset.qr_id}`);
    assert.ok(image.equals(await png(key, `/v1/qrcodes/${explicit.created[0].qr_id}`)), "same style, same bytes");
    assert.ok(!image.equals(await png(key, `/v1/qrcodes/${plain.created[0].qr_id}`)), "the preset changed the drawing");
    assert.equal(decodePng(image), "https://example.com/menu");
  });

  it("dynamic single and batch creates take it; a later edit or deletion of the preset leaves the codes as they were", async () => {
    const { key } = await personalKey();
    const { name } = await saved(key);
    const single = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { name: "One", destination_url: "https://example.com/1", style_preset: name },
    });
    assert.equal(single.status, 201, single.text);
    const batch = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: {
        dynqrcodes: [
          { name: "Two", destination_url: "https://example.com/2", style_preset: name },
          { name: "Three", destination_url: "https://example.com/3" },
        ],
      },
    });
    assert.equal(batch.status, 201, batch.text);
    const [two, three] = (batch.body as { created: Dyn[] }).created;
    assert.deepEqual(two.style, BRAND);
    assert.deepEqual(three.style, {});
    const code = (single.body as { created: Dyn[] }).created[0].code;
    const image = await png(key, `/v1/dynqrcodes/${code}`);

    assert.equal((await http("PATCH", path(name), { key, json: { style: { foreground: "#550000" } } })).status, 200);
    const after = (await http("GET", `/v1/dynqrcodes/${code}`, { key })).body as Dyn;
    assert.deepEqual(after.style, BRAND);
    assert.ok(image.equals(await png(key, `/v1/dynqrcodes/${code}`)), "a printed code's image did not change");
    assert.equal((await http("DELETE", path(name), { key })).status, 200);
    assert.deepEqual(((await http("GET", `/v1/dynqrcodes/${two.code}`, { key })).body as Dyn).style, BRAND);
  });

  it("a static batch lists unknown presets and style sent with one by index, and creates nothing", async () => {
    const { key } = await personalKey();
    const { name } = await saved(key);
    const r = await http("POST", "/v1/qrcodes/batch", {
      key,
      json: {
        qrcodes: [
          { name: "Ok", url: "https://example.com/a", style_preset: name },
          { name: "Unknown", url: "https://example.com/b", style_preset: "No such kit" },
          { name: "Both", url: "https://example.com/c", style_preset: name, style: { foreground: "#111111" } },
        ],
      },
    });
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.body, {
      errors: [
        { index: 1, error: "Unknown style preset: No such kit" },
        { index: 2, error: "Send style or style_preset, not both" },
      ],
    });
    assert.deepEqual(((await http("GET", "/v1/qrcodes", { key })).body as { qrcodes: unknown[] }).qrcodes, []);
    const single = await createStatic(key, { style_preset: "No such kit" });
    assert.deepEqual([single.status, single.body], [400, { error: "Unknown style preset: No such kit" }]);
    const badName = await createStatic(key, { style_preset: "a/b" });
    assert.equal(badName.status, 400, badName.text);
    assert.match((badName.body as { error: string }).error, /^style_preset must be 1 to 64 characters/);
  });

  it("a preset whose logo raises error correction to H refuses a static payload that no longer fits", async () => {
    const { key } = await personalKey();
    const { name } = await saved(key, fresh(), { logo: LOGO });
    // Fits at M (the default), not at H.
    const url = `https://example.com/${"a".repeat(1800)}`;
    assert.equal((await createStatic(key, { url })).status, 201);
    const r = await createStatic(key, { url, style_preset: name });
    assert.equal(r.status, 400, r.text);
    assert.match((r.body as { error: string }).error, /^url /);
  });

  it("PATCH of one code and of a batch applies a preset's current style; an unknown name is 400 by index", async () => {
    const { key } = await personalKey();
    const { name } = await saved(key);
    const stat = ((await createStatic(key, {})).body as { created: Stat[] }).created[0];
    const dyn = (
      (await http("POST", "/v1/dynqrcodes", { key, json: { name: "D", destination_url: "https://example.com/d" } }))
        .body as { created: Dyn[] }
    ).created[0];
    const one = await http("PATCH", `/v1/qrcodes/${stat.qr_id}`, { key, json: { style_preset: name } });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual((one.body as Stat).style, BRAND);
    const both = await http("PATCH", `/v1/dynqrcodes/${dyn.code}`, {
      key,
      json: { style_preset: name, style: { foreground: "#111111" } },
    });
    assert.deepEqual([both.status, both.body], [400, { error: "Send style or style_preset, not both" }]);

    const batch = await http("PATCH", "/v1/dynqrcodes/batch", {
      key,
      json: { dynqrcodes: [{ code: dyn.code, style_preset: name }] },
    });
    assert.equal(batch.status, 200, batch.text);
    assert.deepEqual((batch.body as { updated: Dyn[] }).updated[0].style, BRAND);
    const refused = await http("PATCH", "/v1/qrcodes/batch", {
      key,
      json: { qrcodes: [{ qr_id: stat.qr_id, style_preset: "Nope" }] },
    });
    assert.deepEqual(refused.body, {
      errors: [{ index: 0, error: "Unknown style preset: Nope" }],
    });
  });

  it("another library's preset is not visible: not listed, 404 by name, unknown to its creates", async () => {
    const { key } = await personalKey();
    const { key: otherKey } = await personalKey();
    const { name } = await saved(key);
    assert.deepEqual((await http("GET", "/v1/style-presets", { key: otherKey })).body, { style_presets: [] });
    assert.equal((await http("GET", path(name), { key: otherKey })).status, 404);
    assert.equal((await http("PATCH", path(name), { key: otherKey, json: { style: {} } })).status, 404);
    assert.equal((await http("DELETE", path(name), { key: otherKey })).status, 404);
    const r = await createStatic(otherKey, { style_preset: name });
    assert.deepEqual([r.status, r.body], [400, { error: `Unknown style preset: ${name}` }]);
  });

  it("in a team, admins manage presets (a writer's change 403) and writers use them; changes on the activity log", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const forbidden = await http("POST", "/v1/style-presets", { key: writer.key, json: { name: "Mine", style: {} } });
    assert.deepEqual(
      [forbidden.status, forbidden.body],
      [403, { error: "Only a team admin can manage style presets" }],
    );
    const name = fresh("Team kit");
    const preset = await saved(team.adminKey, name);
    assert.deepEqual((await http("GET", "/v1/style-presets", { key: writer.key })).body, { style_presets: [preset] });
    assert.equal((await http("PATCH", path(name), { key: writer.key, json: { style: {} } })).status, 403);
    assert.equal((await http("DELETE", path(name), { key: writer.key })).status, 403);
    const drafted = await createStatic(writer.key, { style_preset: name });
    assert.equal(drafted.status, 201, drafted.text);
    assert.deepEqual((drafted.body as { created: Stat[] }).created[0].style, BRAND);

    assert.equal((await http("PATCH", path(name), { key: team.adminKey, json: { style: { margin: 6 } } })).status, 200);
    assert.equal((await http("DELETE", path(name), { key: team.adminKey })).status, 200);
    const entries = await db.activityEntry.findMany({
      where: { teamId: team.id, target: name },
      orderBy: { id: "asc" },
      select: { action: true, actorId: true, detail: true },
    });
    assert.deepEqual(
      entries.map((e) => e.action),
      ["style_preset.created", "style_preset.updated", "style_preset.deleted"],
    );
    assert.ok(entries.every((e) => e.actorId === team.admin.id));
    const updated = JSON.parse(entries[1].detail!) as { before: { style: { logo: string } }; after: unknown };
    // The logo is named by its size, not copied into the log.
    assert.match(updated.before.style.logo, /^\(image, \d+ characters\)$/);
    assert.deepEqual(updated.after, { name, style: { margin: 6 } });
  });

  it("a library holds at most 100 presets (409)", async () => {
    const { user, key } = await personalKey();
    const now = new Date();
    await db.stylePreset.createMany({
      data: Array.from({ length: 100 }, (_, i) => ({
        id: `sp_${randomBytes(10).toString("hex")}${i}`,
        library: `user:${user.id}`,
        name: `Kit ${i}`,
        style: "{}",
        createdAt: now,
        updatedAt: now,
      })),
    });
    const r = await http("POST", "/v1/style-presets", { key, json: { name: "One more", style: {} } });
    assert.deepEqual(
      [r.status, r.body],
      [409, { error: "A library holds at most 100 style presets: delete one first" }],
    );
  });
});
