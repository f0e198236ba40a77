// The lists' `search` through the trigram indexes (migration `search_trigrams`, server/library/listSearch.ts)
// on each backend: the index only narrows the rows, so every answer is the one a plain
// LIKE '%…%' on the folded columns gives: FTS5 query syntax and quotes are plain text, 1 and 2
// characters (no trigram) still match, deleted codes and other libraries stay out, and the pages
// of a cursor are the same whichever way (index or walk) SQLite took.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db, dialect } from "../../server/platform/db";
import { timeOrderedId } from "../../server/platform/ids";
import { searchCondition } from "../../server/library/listSearch";
import { http, personalKey } from "../helpers";

type Named = { name: string; code?: string; qr_id?: string };

async function all(key: string, kind: "qrcodes" | "dynqrcodes", query: Record<string, string | number>) {
  const seen: Named[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(
      Object.entries({ ...query, ...(cursor ? { cursor } : {}) }).map(([k, v]) => [k, String(v)]),
    );
    const r = await http("GET", `/v1/${kind}?${params}`, { key });
    assert.equal(r.status, 200, r.text);
    const body = r.body as Record<string, unknown>;
    seen.push(...(body[kind] as Named[]));
    cursor = (body.next_cursor ?? null) as string | null;
  } while (cursor);
  return seen;
}

async function createDynamic(key: string, names: string[]) {
  const dynqrcodes = names.map((name, i) => ({ name, destination_url: `https://example.com/d/${i}` }));
  const r = await http("POST", "/v1/dynqrcodes/batch", { key, json: { dynqrcodes } });
  assert.equal(r.status, 201, r.text);
  return (r.body as { created: { code: string; name: string }[] }).created;
}

const fold = (text: string) => text.normalize("NFC").toLowerCase();
/** What the list must answer: the names of the codes whose name or URL holds `search`, both folded, as JavaScript finds them. */
const expected = (codes: string[], search: string, url = (i: number) => `https://example.com/d/${i}`) =>
  codes.filter((name, i) => [name, url(i)].some((text) => fold(text).includes(fold(search.trim())))).sort();

/** The index (SQLite) is the code tables' content, row for row, after every kind of write: FTS5 checks it. */
async function indexIntact() {
  if (dialect !== "sqlite") return;
  for (const table of ["StaticCode_search", "DynamicCode_search"])
    await db.$executeRawUnsafe(`INSERT INTO "${table}"("${table}", rank) VALUES ('integrity-check', 1)`);
}

describe("search through the trigram index", () => {
  it("FTS syntax, quotes and LIKE's characters are plain text; 1 and 2 characters match; non-ASCII folds", async () => {
    const { key } = await personalKey();
    const names = [
      'say a"b twice',
      'a""b doubled',
      "NEAR(one two)",
      "star* power",
      "this OR that",
      "col:umn ^caret -minus",
      "Ärzte Straße",
      "東京 tower",
      "🍕 Pizza",
      "İstanbul",
      "ΣΟΦΙΑ",
      "100% _under_",
      "plain",
    ];
    await createDynamic(key, names);
    const searches = [
      'a"b',
      '"',
      '""',
      'a""b',
      "NEAR",
      "near(",
      "*",
      "r*",
      "star*",
      "OR",
      "s or t",
      "col:",
      "^c",
      "-minus",
      "ÄRZTE",
      "straße",
      "STRASSE",
      "東",
      "東京",
      "京 t",
      "🍕",
      "🍕 p",
      "İST",
      "σοφ",
      "Σ",
      "%",
      "_u",
      "% _",
      "e",
      "pl",
      "nothing here",
    ];
    for (const search of searches) {
      const found = (await all(key, "dynqrcodes", { search })).map((i) => i.name).sort();
      assert.deepEqual(found, expected(names, search), JSON.stringify(search));
    }
    await indexIntact();
  });

  it("combined with the other filters: deleted codes, other libraries, status and paging give the same pages", async () => {
    const { key } = await personalKey();
    const other = await personalKey();
    const words = ["Menu", "MENÜ card", "Flyer", "menu board", "Poster"];
    const made = await createDynamic(
      key,
      Array.from({ length: 30 }, (_, i) => `${words[i % words.length]} ${i}.`),
    );
    await createDynamic(other.key, ["Menu of theirs", "menu too"]);
    const gone = await http("DELETE", `/v1/dynqrcodes/${made[0].code}`, { key });
    assert.equal(gone.status, 200, gone.text);
    for (const code of [made[3].code, made[5].code])
      assert.equal((await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { status: "paused" } })).status, 200);
    const renamed = await http("PATCH", `/v1/dynqrcodes/${made[1].code}`, { key, json: { name: "Renamed" } });
    assert.equal(renamed.status, 200);
    const live = made.slice(1).map((m, i) => (i === 0 ? "Renamed" : m.name));

    const newest = (await all(key, "dynqrcodes", { search: "menu", limit: 4 })).map((i) => i.name);
    const wanted = made
      .slice(1)
      .filter((m, i) => i > 0 && /menu/i.test(m.name))
      .map((m) => m.name)
      .reverse();
    assert.deepEqual(newest, wanted, "newest first, page by page");
    assert.deepEqual(
      (await all(key, "dynqrcodes", { search: "MENU", sort: "oldest", limit: 3 })).map((i) => i.name),
      [...wanted].reverse(),
    );
    const byName = (await all(key, "dynqrcodes", { search: "menu", sort: "name", limit: 5 })).map((i) => i.name);
    assert.deepEqual([...byName].sort(), [...wanted].sort());
    assert.deepEqual(
      byName.map((n) => n.toLowerCase()),
      [...byName].map((n) => n.toLowerCase()).sort(),
    );
    assert.deepEqual(
      (await all(key, "dynqrcodes", { search: "menu", status: "paused" })).map((i) => i.name),
      [made[5].name, made[3].name],
    );
    assert.deepEqual(await all(key, "dynqrcodes", { search: made[0].name }), [], "a deleted code is not found");
    assert.deepEqual(
      (await all(key, "dynqrcodes", { search: "ENAM" })).map((i) => i.name),
      ["Renamed"],
      "by its new name",
    );
    assert.deepEqual(await all(key, "dynqrcodes", { search: made[1].name }), [], "nor by its old one");
    assert.deepEqual(
      (await all(key, "dynqrcodes", { search: made[7].code })).map((i) => i.name),
      [made[7].name],
      "an exact code",
    );
    assert.deepEqual(
      (await all(key, "dynqrcodes", { search: "menü" })).map((i) => i.name).sort(),
      expected(live, "menü", (i) => `https://example.com/d/${i + 1}`),
    );
    await indexIntact();
  });

  it("a text many codes of other libraries hold: the same answer as a rare one's", async () => {
    const { key, user } = await personalKey();
    const crowd = await personalKey();
    // More rows hold it than SQLite's index way takes (FEW_MATCHES): the newest-first walk answers.
    const at = Date.now();
    await db.staticCode.createMany({
      data: Array.from({ length: 1100 }, (_, i) => ({
        id: timeOrderedId("qr"),
        userId: crowd.user.id,
        createdById: crowd.user.id,
        name: `Crowded word ${i}`,
        url: `https://example.com/c/${i}`,
        createdAt: new Date(at),
        updatedAt: new Date(at),
      })),
    });
    const mine = ["crowded WORD here", "not it", "Also crowded word"];
    for (const name of mine) {
      const r = await http("POST", "/v1/qrcodes", { key, json: { name, url: "https://example.com/m" } });
      assert.equal(r.status, 201, r.text);
    }
    assert.deepEqual(
      (await all(key, "qrcodes", { search: "crowded word", limit: 1 })).map((i) => i.name),
      ["Also crowded word", "crowded WORD here"],
    );
    assert.deepEqual(
      (await all(key, "qrcodes", { search: "crowded word", sort: "name", limit: 1 })).map((i) => i.name),
      ["Also crowded word", "crowded WORD here"],
    );
    const deleted = await db.staticCode.deleteMany({ where: { userId: user.id, name: "not it" } });
    assert.equal(deleted.count, 1);
    await indexIntact();
  });

  it("the LIKE is answered from the trigram index: pg_trgm's GIN indexes, SQLite's FTS5 table", async () => {
    const search = "flyer ärzte";
    const { sql, params } = await searchCondition("DynamicCode", "code", search, "newest");
    const where = sql(dialect);
    const plan =
      dialect === "postgres"
        ? await db.$transaction(async (tx) => {
            // A test database is too small for the planner to prefer an index: it is told not to scan.
            await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
            let n = 0;
            const text = `EXPLAIN SELECT r."id" FROM "DynamicCode" r WHERE ${where.replace(/\?/g, () => `$${++n}`)}`;
            return (await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(text, ...params)).map((r) => r["QUERY PLAN"]);
          })
        : (
            await db.$queryRawUnsafe<{ detail: string }[]>(
              `EXPLAIN QUERY PLAN SELECT r."id" FROM "DynamicCode" r WHERE ${where}`,
              ...params,
            )
          ).map((r) => r.detail);
    const text = plan.join("\n");
    const used =
      dialect === "postgres"
        ? /DynamicCode_searchName_trgm[\s\S]*DynamicCode_searchUrl_trgm/
        : /DynamicCode_search VIRTUAL TABLE INDEX/;
    assert.match(text, used, text);
  });

  it("sort=name walks an index in name order (bytewise on both backends), without sorting the library", async () => {
    // The ORDER BY of listFilters.ts's name sort, for a personal library and a team's.
    for (const [owner, index] of [
      [`r."userId" = 'u' AND r."teamId" IS NULL`, "DynamicCode_userId_searchName_id_idx"],
      [`r."teamId" = 't'`, "DynamicCode_teamId_searchName_id_idx"],
    ]) {
      const order = dialect === "postgres" ? `r."searchName" COLLATE "C", r."id"` : `r."searchName", r."id"`;
      const query = `SELECT r."id" FROM "DynamicCode" r WHERE ${owner} ORDER BY ${order} LIMIT 51`;
      const text =
        dialect === "postgres"
          ? await db.$transaction(async (tx) => {
              // A test database is small: the planner is told to take neither a scan nor a sort it can avoid.
              for (const off of ["enable_seqscan", "enable_bitmapscan", "enable_sort"])
                await tx.$executeRawUnsafe(`SET LOCAL ${off} = off`);
              const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${query}`);
              return rows.map((r) => r["QUERY PLAN"]).join("\n");
            })
          : (await db.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${query}`))
              .map((r) => r.detail)
              .join("\n");
      assert.match(text, new RegExp(index), text);
      assert.doesNotMatch(text, dialect === "postgres" ? /Sort/ : /TEMP B-TREE/, text);
    }
  });
});
