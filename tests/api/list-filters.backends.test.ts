// The lists' filters and sorts, and the batch deletes (contract Part 3, "Reading, finding and
// changing in bulk"), on each backend: what SQL decides (LIKE, case folding, keyset order,
// one transaction) must answer the same on SQLite and PostgreSQL.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { http, makeTeam, personalKey } from "../helpers";

type Dyn = { code: string; name: string; status: string; destination_url: string; created_at: number };
type Static = { qr_id: string; name: string; url: string; created_at: number };
type Page<T> = { items: T[]; next: string | null; status: number; body: unknown };

async function list<T>(key: string, kind: "qrcodes" | "dynqrcodes", query: Record<string, string | number>) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const r = await http("GET", `/v1/${kind}${search ? `?${search}` : ""}`, { key });
  const body = r.body as Record<string, unknown>;
  return {
    items: (body[kind] ?? []) as T[],
    next: (body.next_cursor ?? null) as string | null,
    status: r.status,
    body,
  };
}
const names = (items: { name: string }[]) => items.map((i) => i.name);

/** Every item of a filtered list, page by page through its cursor. */
async function all<T>(key: string, kind: "qrcodes" | "dynqrcodes", query: Record<string, string | number>) {
  const seen: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await list<T>(key, kind, { ...query, ...(cursor ? { cursor } : {}) });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    seen.push(...page.items);
    cursor = page.next;
  } while (cursor);
  return seen;
}

async function createDynamic(key: string, items: { name: string; destination_url: string }[]) {
  const r = await http("POST", "/v1/dynqrcodes/batch", { key, json: { dynqrcodes: items } });
  assert.equal(r.status, 201, r.text);
  return (r.body as { created: Dyn[] }).created;
}
async function createStatic(key: string, items: { name: string; url: string }[]) {
  const r = await http("POST", "/v1/qrcodes/batch", { key, json: { qrcodes: items } });
  assert.equal(r.status, 201, r.text);
  return (r.body as { created: Static[] }).created;
}

describe("list filters and sorts", () => {
  it("search: case-insensitive in name and URL, Unicode too; % _ \\ literal; an exact code or qr_id", async () => {
    const { key } = await personalKey();
    const made = await createDynamic(key, [
      { name: "École du Nord", destination_url: "https://example.com/a" },
      { name: "Lunch MENU", destination_url: "https://example.com/b" },
      { name: "Plain", destination_url: "https://shop.example.com/Menu-Card" },
      { name: "100% off", destination_url: "https://example.com/c" },
      { name: "100 percent off", destination_url: "https://example.com/d" },
      { name: "a_b", destination_url: "https://example.com/e" },
      { name: "axb", destination_url: "https://example.com/f" },
      { name: "back\\slash", destination_url: "https://example.com/g" },
      { name: "ΣΟΦΙΑ café", destination_url: "https://example.com/h" },
    ]);
    const find = async (search: string) => names(await all<Dyn>(key, "dynqrcodes", { search })).sort();
    assert.deepEqual(await find("ÉCOLE"), ["École du Nord"]);
    assert.deepEqual(await find("école"), ["École du Nord"]);
    assert.deepEqual(await find("σοφια"), ["ΣΟΦΙΑ café"]);
    assert.deepEqual(await find("CAFÉ"), ["ΣΟΦΙΑ café"]);
    assert.deepEqual(await find("menu"), ["Lunch MENU", "Plain"], "name and destination");
    assert.deepEqual(await find("100%"), ["100% off"], "% is a character");
    assert.deepEqual(await find("a_b"), ["a_b"], "_ is a character");
    assert.deepEqual(await find("k\\s"), ["back\\slash"]);
    assert.deepEqual(await find("%"), ["100% off"]);
    assert.deepEqual(await find("nothing like it"), []);
    assert.deepEqual(await find(made[6].code), ["axb"], "an exact code");
    assert.deepEqual(await find("  menu  "), ["Lunch MENU", "Plain"], "trimmed");
    assert.equal((await all<Dyn>(key, "dynqrcodes", { search: "" })).length, made.length, "empty: no filter");

    const statics = await createStatic(key, [
      { name: "ÉTÉ poster", url: "https://example.com/summer" },
      { name: "Winter", url: "https://example.com/WINTER_sale" },
      { name: "Winterxsale", url: "https://example.com/other" },
    ]);
    const findStatic = async (search: string) => names(await all<Static>(key, "qrcodes", { search })).sort();
    assert.deepEqual(await findStatic("été"), ["ÉTÉ poster"]);
    assert.deepEqual(await findStatic("winter_"), ["Winter"]);
    assert.deepEqual(await findStatic(statics[2].qr_id), ["Winterxsale"], "an exact qr_id");

    // A rename is searched by its new name (the folded column follows every write).
    const patched = await http("PATCH", `/v1/dynqrcodes/${made[1].code}`, { key, json: { name: "Ölmühle" } });
    assert.equal(patched.status, 200);
    assert.deepEqual(await find("ÖLMÜHLE"), ["Ölmühle"]);
    assert.deepEqual(await find("lunch"), []);
  });

  it("status, created_after (inclusive) and created_before (exclusive), combined with search", async () => {
    const { key } = await personalKey();
    const made = await createDynamic(
      key,
      [1, 2, 3, 4].map((i) => ({ name: `Shop ${i}`, destination_url: `https://example.com/${i}` })),
    );
    const other = await createDynamic(key, [{ name: "Other", destination_url: "https://example.com/o" }]);
    for (const code of [made[0].code, made[2].code, other[0].code])
      assert.equal((await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { status: "paused" } })).status, 200);
    assert.deepEqual(names(await all<Dyn>(key, "dynqrcodes", { status: "paused" })), ["Other", "Shop 3", "Shop 1"]);
    assert.deepEqual(names(await all<Dyn>(key, "dynqrcodes", { status: "active" })), ["Shop 4", "Shop 2"]);
    assert.deepEqual(names(await all<Dyn>(key, "dynqrcodes", { status: "paused", search: "shop" })), [
      "Shop 3",
      "Shop 1",
    ]);

    // Times the test sets: an hour apart.
    const base = Math.floor(Date.now() / 1000) - 10 * 3600;
    const all5 = [...made, ...other];
    for (const [i, d] of all5.entries())
      await db.dynamicCode.updateMany({
        where: { code: d.code },
        data: { createdAt: new Date((base + i * 3600) * 1000) },
      });
    const window = await all<Dyn>(key, "dynqrcodes", { created_after: base + 3600, created_before: base + 3 * 3600 });
    assert.deepEqual(names(window), ["Shop 3", "Shop 2"], "at or after, and before");
    assert.deepEqual(names(await all<Dyn>(key, "dynqrcodes", { created_after: base + 4 * 3600 })), ["Other"]);
    assert.deepEqual(names(await all<Dyn>(key, "dynqrcodes", { created_before: base + 1 })), ["Shop 1"]);
    assert.deepEqual(
      names(await all<Dyn>(key, "dynqrcodes", { created_after: base, status: "paused", search: "SHOP" })),
      ["Shop 3", "Shop 1"],
    );
  });

  it("external_id: the one code with it (exact, case-sensitive), another library's never; a bad one is a 400", async () => {
    const { key } = await personalKey();
    const other = await personalKey();
    const make = async (k: string, kind: "qrcodes" | "dynqrcodes", externalId: string) => {
      const json =
        kind === "qrcodes"
          ? { name: externalId, url: "https://example.com/x", external_id: externalId }
          : { name: externalId, destination_url: "https://example.com/x", external_id: externalId };
      const r = await http("POST", `/v1/${kind}`, { key: k, json });
      assert.equal(r.status, 201, r.text);
    };
    for (const kind of ["qrcodes", "dynqrcodes"] as const) {
      await make(key, kind, "CRM-42");
      await make(key, kind, "crm-42");
      await make(other.key, kind, "CRM-42");
      const found = await list<{ name: string; external_id: string }>(key, kind, { external_id: "CRM-42" });
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.deepEqual(
        found.items.map((i) => i.external_id),
        ["CRM-42"],
        kind,
      );
      const none = await list(key, kind, { external_id: "CRM-4", search: "crm" });
      assert.deepEqual([none.status, none.items], [200, []]);
      const bad = await list(key, kind, { external_id: "x".repeat(201) });
      assert.deepEqual([bad.status, bad.body], [400, { error: "external_id must be 1 to 200 printable characters" }]);
    }
  });

  it("sort newest, oldest and name; paging a filtered list with its cursor misses nothing and repeats nothing", async () => {
    const { key } = await personalKey();
    const words = ["delta", "Alpha", "charlie", "Bravo", "echo", "alpha"];
    const made = await createStatic(
      key,
      Array.from({ length: 24 }, (_, i) => ({
        name: `${words[i % words.length]} ${i % 4}`,
        url: `https://e.com/${i}`,
      })),
    );
    const ids = made.map((m) => m.qr_id);
    const newest = await all<Static>(key, "qrcodes", { limit: 5 });
    assert.deepEqual(
      newest.map((s) => s.qr_id),
      [...ids].reverse(),
    );
    const oldest = await all<Static>(key, "qrcodes", { sort: "oldest", limit: 7 });
    assert.deepEqual(
      oldest.map((s) => s.qr_id),
      ids,
    );
    const byName = await all<Static>(key, "qrcodes", { sort: "name", limit: 4 });
    assert.equal(new Set(byName.map((s) => s.qr_id)).size, 24);
    const folded = byName.map((s) => s.name.toLowerCase());
    assert.deepEqual(folded, [...folded].sort(), "A to Z whatever the case");
    const filtered = await all<Static>(key, "qrcodes", { sort: "name", search: "ALPHA", limit: 3 });
    assert.equal(filtered.length, 8);
    assert.ok(filtered.every((s) => s.name.toLowerCase().startsWith("alpha")));
    assert.equal(new Set(filtered.map((s) => s.qr_id)).size, 8, "no item twice");
  });

  it("a cursor is bound to its filters; bad values are clear 400s, checked before any query", async () => {
    const { key } = await personalKey();
    await createDynamic(
      key,
      [1, 2, 3].map((i) => ({ name: `Code ${i}`, destination_url: `https://example.com/${i}` })),
    );
    const first = await list<Dyn>(key, "dynqrcodes", { search: "code", limit: 1 });
    assert.ok(first.next);
    const moved = await list<Dyn>(key, "dynqrcodes", { search: "other", limit: 1, cursor: first.next! });
    assert.equal(moved.status, 400);
    assert.match((moved.body as { error: string }).error, /^cursor was made for other filters or another sort/);
    const sorted = await list<Dyn>(key, "dynqrcodes", { search: "code", sort: "oldest", cursor: first.next! });
    assert.equal(sorted.status, 400);
    const samePageSize = await list<Dyn>(key, "dynqrcodes", { search: "code", limit: 5, cursor: first.next! });
    assert.equal(samePageSize.status, 200, "the page size may change");
    assert.equal(samePageSize.items.length, 2);

    const refused: [Record<string, string | number>, string][] = [
      [{ search: "x".repeat(201) }, "search must be at most 200 characters"],
      [{ created_after: "yesterday" }, "created_after must be an integer number of seconds since 1970-01-01 UTC"],
      [{ created_before: "1.5" }, "created_before must be an integer number of seconds since 1970-01-01 UTC"],
      [{ created_after: "-5" }, "created_after must be an integer number of seconds since 1970-01-01 UTC"],
      [{ created_after: 2000, created_before: 1000 }, "created_before must be later than created_after"],
      [{ search: "a\nb" }, "search must not contain control characters (line breaks, tabs, NUL)"],
      [{ sort: "random" }, "sort must be one of newest, oldest, name"],
      [{ status: "deleted" }, "status must be one of active, paused, draft"],
      [{ cursor: "bm90IGEgY3Vyc29y" }, "cursor is not valid: pass the next_cursor of a previous page"],
      [{ external: "1" }, "Unknown query parameter: external"],
    ];
    for (const [query, error] of refused) {
      const r = await list<Dyn>(key, "dynqrcodes", query);
      assert.deepEqual([r.status, r.body], [400, { error }], JSON.stringify(query));
    }
    const statusOnStatic = await list<Static>(key, "qrcodes", { status: "active" });
    assert.deepEqual([statusOnStatic.status, statusOnStatic.body], [400, { error: "Unknown query parameter: status" }]);
    const huge = await http("GET", `/v1/qrcodes?search=${"%C3%A9".repeat(1000)}`, { key });
    assert.deepEqual([huge.status, huge.body], [400, { error: "search must be at most 200 characters" }]);
  });
});

describe("batch delete", () => {
  it("all or nothing: an unknown id or another library's fails the batch by index, nothing is deleted", async () => {
    const { key } = await personalKey();
    const { key: otherKey } = await personalKey();
    const mine = await createDynamic(
      key,
      [1, 2, 3].map((i) => ({ name: `D${i}`, destination_url: `https://e.com/${i}` })),
    );
    const theirs = await createDynamic(otherKey, [{ name: "Theirs", destination_url: "https://e.com/t" }]);
    const codes = mine.map((m) => m.code);
    const refused = await http("POST", "/v1/dynqrcodes/batch-delete", {
      key,
      json: { ids: [codes[0], theirs[0].code, codes[1], "nope"] },
    });
    assert.equal(refused.status, 404);
    assert.deepEqual(refused.body, {
      errors: [
        { index: 1, error: "Dynamic QR code not found" },
        { index: 3, error: "Dynamic QR code not found" },
      ],
    });
    assert.equal((await all<Dyn>(key, "dynqrcodes", {})).length, 3, "nothing deleted");
    assert.equal((await all<Dyn>(otherKey, "dynqrcodes", {})).length, 1, "theirs neither");

    const ok = await http("POST", "/v1/dynqrcodes/batch-delete", { key, json: { ids: [codes[2], codes[0]] } });
    assert.deepEqual([ok.status, ok.body], [200, { deleted: [codes[2], codes[0]] }]);
    assert.deepEqual(names(await all<Dyn>(key, "dynqrcodes", {})), ["D2"]);
    assert.equal((await http("GET", `/q/${codes[0]}`)).status, 410, "the short link stops at once");

    const statics = await createStatic(
      key,
      [1, 2].map((i) => ({ name: `S${i}`, url: `https://e.com/s${i}` })),
    );
    const again = await http("POST", "/v1/qrcodes/batch-delete", {
      key,
      json: { ids: [statics[0].qr_id, statics[0].qr_id] },
    });
    assert.deepEqual(
      [again.status, again.body],
      [400, { errors: [{ index: 1, error: "the same id as item 0: send each once" }] }],
    );
    const both = await http("POST", "/v1/qrcodes/batch-delete", { key, json: { ids: statics.map((s) => s.qr_id) } });
    assert.deepEqual([both.status, both.body], [200, { deleted: statics.map((s) => s.qr_id) }]);
    assert.deepEqual(await all<Static>(key, "qrcodes", {}), []);

    for (const json of [{ ids: [] }, { ids: Array.from({ length: 51 }, (_, i) => `qr_${i}`) }, { ids: "x" }, {}]) {
      const r = await http("POST", "/v1/qrcodes/batch-delete", { key, json });
      assert.equal(r.status, 400, JSON.stringify(json));
    }
  });

  it("a writer's key cannot delete a published team code (403 by index); each deleted code has its event and activity entry", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const hook = await http("POST", "/v1/webhooks", {
      key: team.adminKey,
      json: { url: "https://93.184.215.14/hooks", events: ["dynqrcode.deleted"] },
    });
    assert.equal(hook.status, 201);
    const made = await createDynamic(
      writer.key,
      [1, 2, 3].map((i) => ({ name: `T${i}`, destination_url: `https://e.com/${i}` })),
    );
    const codes = made.map((m) => m.code);
    const published = await http("PATCH", `/v1/dynqrcodes/${codes[1]}`, {
      key: team.adminKey,
      json: { status: "active" },
    });
    assert.equal(published.status, 200);
    const refused = await http("POST", "/v1/dynqrcodes/batch-delete", { key: writer.key, json: { ids: codes } });
    assert.deepEqual(
      [refused.status, refused.body],
      [403, { errors: [{ index: 1, error: "Only a team admin can delete a published code" }] }],
    );
    assert.equal((await all<Dyn>(writer.key, "dynqrcodes", {})).length, 3);

    const drafts = [codes[0], codes[2]];
    const ok = await http("POST", "/v1/dynqrcodes/batch-delete", { key: writer.key, json: { ids: drafts } });
    assert.deepEqual([ok.status, ok.body], [200, { deleted: drafts }]);
    const events = await db.webhookEvent.findMany({ where: { type: "dynqrcode.deleted" } });
    for (const code of drafts)
      assert.equal(events.filter((e) => (JSON.parse(e.payload).data?.code ?? "") === code).length, 1, code);
    const entries = await db.activityEntry.findMany({ where: { teamId: team.id, action: "code.deleted" } });
    assert.deepEqual(entries.map((e) => e.target).sort(), [...drafts].sort());
    const byAdmin = await http("POST", "/v1/dynqrcodes/batch-delete", {
      key: team.adminKey,
      json: { ids: [codes[1]] },
    });
    assert.deepEqual([byAdmin.status, byAdmin.body], [200, { deleted: [codes[1]] }]);
  });
});
