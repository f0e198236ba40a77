// The web library's calls (what /library and /business send), against the real server:
// pasted lines all or nothing with the bad lines named (fields in the labels' words), who may change what, the style
// editor's rules, paging and search, and the session's image route.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { http, logIn, makeTeam, makeUser, personalKey, TEST_PASSWORD } from "../helpers";
import { decodePng } from "../qr-decode";

type Page = {
  items: { kind: string; id: string; name: string; status: string; shortUrl: string | null }[];
  page: number;
  pages: number;
  total: number;
};

describe("web library", () => {
  it("pasted lines are created all or none; every bad line is named by its number", async () => {
    const { user, key } = await personalKey();
    const page = await logIn(user.email, TEST_PASSWORD);
    const lines =
      "Good one, https://example.com/1\nBad scheme, javascript:alert(1)\n\nno comma here\nGood two, https://example.com/2";
    await assert.rejects(page("library.createMany", { scope: "personal", kind: "dynamic", lines }), (e: Error) => {
      assert.equal(
        e.message,
        "Line 2: Destination URL must be an absolute http or https URL\nLine 4: write it as: name, https://…",
      );
      return true;
    });
    // A name over 200 characters is named too, never cut.
    const long = "N".repeat(201);
    await assert.rejects(
      page("library.createMany", {
        scope: "personal",
        kind: "static",
        lines: `${long}, https://example.com/long\nfine, https://example.com/f\nbroken`,
      }),
      (e: Error) => {
        assert.equal(
          e.message,
          "Line 1: Name must be 1 to 200 characters (after trimming)\nLine 3: write it as: name, https://…",
        );
        return true;
      },
    );
    await assert.rejects(
      page("library.create", { scope: "personal", kind: "static", name: long, url: "https://example.com/long" }),
      /^Error: Name must be 1 to 200 characters/,
    );
    await assert.rejects(
      page("library.createMany", { scope: "personal", kind: "static", lines: lines.replace("no comma here\n", "") }),
      (e: Error) => {
        assert.equal(e.message, "Line 2: URL must be an absolute http or https URL");
        return true;
      },
    );
    const tooMany = Array.from({ length: 51 }, (_, i) => `Item ${i}, https://example.com/${i}`).join("\n");
    await assert.rejects(
      page("library.createMany", { scope: "personal", kind: "static", lines: tooMany }),
      /A batch holds at most 50 items/,
    );
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key })).body, { qrcodes: [], next_cursor: null });
    assert.deepEqual((await http("GET", "/v1/dynqrcodes", { key })).body, { dynqrcodes: [], next_cursor: null });

    assert.deepEqual(
      await page("library.createMany", {
        scope: "personal",
        kind: "dynamic",
        lines: "Menu, with comma, https://example.com/a,b\n  Second , https://example.com/2  ",
      }),
      { created: 2 },
    );
    const list = (await http("GET", "/v1/dynqrcodes", { key })).body as {
      dynqrcodes: { name: string; destination_url: string; status: string }[];
    };
    assert.deepEqual(list.dynqrcodes.map((d) => [d.name, d.destination_url, d.status]).sort(), [
      ["Menu, with comma", "https://example.com/a,b", "active"],
      ["Second", "https://example.com/2", "active"],
    ]);
  });

  it("pages of 20, newest first, static and dynamic together; search ignores case", async () => {
    const { user } = await personalKey();
    const page = await logIn(user.email, TEST_PASSWORD);
    await page("library.createMany", {
      scope: "personal",
      kind: "static",
      lines: Array.from({ length: 12 }, (_, i) => `Static ${i}, https://example.com/s${i}`).join("\n"),
    });
    await page("library.createMany", {
      scope: "personal",
      kind: "dynamic",
      lines: Array.from({ length: 13 }, (_, i) => `Dynamic ${i}, https://example.com/d${i}`).join("\n"),
    });
    await page("library.create", {
      scope: "personal",
      kind: "dynamic",
      name: "Lunch MENU",
      url: "https://example.com/lunch",
    });
    const first = (await page.query("library.page", { scope: "personal" })) as Page;
    assert.deepEqual([first.page, first.pages, first.total, first.items.length], [1, 2, 26, 20]);
    assert.equal(first.items[0].name, "Lunch MENU");
    assert.deepEqual(
      first.items.slice(1, 14).map((i) => i.kind),
      Array(13).fill("dynamic"),
    );
    const second = (await page.query("library.page", { scope: "personal", page: 2 })) as Page;
    assert.equal(second.items.length, 6);
    assert.deepEqual(
      second.items.map((i) => i.kind),
      Array(6).fill("static"),
    );
    assert.equal(new Set([...first.items, ...second.items].map((i) => i.id)).size, 26);
    const found = (await page.query("library.page", { scope: "personal", search: "lunch menu" })) as Page;
    assert.deepEqual(
      found.items.map((i) => i.name),
      ["Lunch MENU"],
    );
    const byUrl = (await page.query("library.page", { scope: "personal", search: "example.com/S1" })) as Page;
    assert.deepEqual(byUrl.items.map((i) => i.name).sort(), ["Static 1", "Static 10", "Static 11"]);
  });

  it("search takes % and _ (and \\) literally, on every backend", async () => {
    const { user } = await personalKey();
    const page = await logIn(user.email, TEST_PASSWORD);
    await page("library.createMany", {
      scope: "personal",
      kind: "static",
      lines: [
        "100% cotton, https://example.com/cotton",
        "Plain name, https://example.com/a_b?utm_source=x",
        "Back\\slash, https://example.com/bs",
        "Other, https://example.com/other",
      ].join("\n"),
    });
    await page("library.createMany", {
      scope: "personal",
      kind: "dynamic",
      lines: "Sale 50% off, https://example.com/sale\nUnder_score, https://example.com/u\nAxB, https://example.com/axb",
    });
    const names = async (search: string) =>
      ((await page.query("library.page", { scope: "personal", search })) as Page).items.map((i) => i.name).sort();
    assert.deepEqual(await names("%"), ["100% cotton", "Sale 50% off"]);
    assert.deepEqual(await names("0% "), ["100% cotton", "Sale 50% off"]);
    assert.deepEqual(await names("_"), ["Plain name", "Under_score"]);
    assert.deepEqual(await names("A_B"), ["Plain name"]);
    assert.deepEqual(await names("r_S"), ["Under_score"]);
    assert.deepEqual(await names("%%"), []);
    assert.deepEqual(await names("\\"), ["Back\\slash"]);
    assert.deepEqual(await names("K\\S"), ["Back\\slash"]);
    assert.equal(((await page.query("library.page", { scope: "personal", search: "_" })) as Page).total, 2);
    // Without wildcards, search still ignores case and finds codes by URL.
    assert.deepEqual(await names(".COM/AXB"), ["AxB"]);
    assert.deepEqual(await names("COTTON"), ["100% cotton"]);
  });

  it("viewers only read; writers cannot publish; nobody reaches another library", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const viewer = await team.addMember("viewer");
    const writerPage = await logIn(writer.user.email, TEST_PASSWORD);
    await writerPage("library.create", {
      scope: "team",
      kind: "dynamic",
      name: "Draft",
      url: "https://example.com/draft",
    });
    const [draft] = ((await writerPage.query("library.page", { scope: "team" })) as Page).items;
    assert.equal(draft.status, "draft");
    const viewerPage = await logIn(viewer.email, TEST_PASSWORD);
    assert.equal(((await viewerPage.query("library.page", { scope: "team" })) as Page).items[0].id, draft.id);
    for (const [procedure, input] of [
      ["library.create", { scope: "team", kind: "static", name: "No", url: "https://example.com/no" }],
      ["library.update", { scope: "team", patch: { code: draft.id, name: "No" } }],
      ["library.remove", { scope: "team", kind: "dynamic", id: draft.id }],
      ["library.saveStyle", { scope: "team", kind: "dynamic", id: draft.id, style: { margin: 1 } }],
    ] as const) {
      await assert.rejects(viewerPage(procedure, input), /Viewers only read the team library/, procedure);
    }
    await assert.rejects(
      writerPage("library.update", { scope: "team", patch: { code: draft.id, status: "active" } }),
      /Only a team admin can publish/,
    );
    const admin = await logIn(team.admin.email, TEST_PASSWORD);
    await admin("library.update", { scope: "team", patch: { code: draft.id, status: "active" } });
    assert.equal((await http("GET", `/q/${draft.id}`)).status, 302);

    // Someone else's personal page cannot touch the team's code.
    const stranger = await logIn((await makeUser("pro")).email, TEST_PASSWORD);
    await assert.rejects(
      stranger("library.remove", { scope: "personal", kind: "dynamic", id: draft.id }),
      /Dynamic QR code not found/,
    );
    await assert.rejects(
      stranger("library.update", { scope: "team", patch: { code: draft.id, name: "x" } }),
      /You are not in a team/,
    );
    assert.equal((await stranger.get(`/library/qr/dynamic/${draft.id}`)).status, 404);
    assert.equal((await fetch(`${process.env.BASE_URL}/library/qr/dynamic/${draft.id}`)).status, 401);
    const image = await viewerPage.get(`/library/qr/dynamic/${draft.id}?format=png&download=1`);
    assert.equal(image.status, 200);
    assert.match(image.headers.get("content-disposition") ?? "", /^attachment; filename="qr-/);
    assert.equal(decodePng(Buffer.from(await image.arrayBuffer())), draft.shortUrl);
  });

  it("the style editor saves the API's style; colours too close or unknown fields are refused", async () => {
    const { user, key } = await personalKey();
    const page = await logIn(user.email, TEST_PASSWORD);
    await page("library.create", {
      scope: "personal",
      kind: "static",
      name: "Styled",
      url: "https://example.com/styled",
    });
    const [item] = ((await page.query("library.page", { scope: "personal" })) as Page).items;
    const save = (style: unknown) =>
      page("library.saveStyle", { scope: "personal", kind: "static", id: item.id, style });
    await assert.rejects(
      save({ foreground: "#777777", background: "#888888" }),
      /^Error: Style makes the code unreadable: contrast between colors is too low$/,
    );
    await assert.rejects(save({ foreground: "#ffffff" }), /contrast between colors is too low/);
    await assert.rejects(save({ shape: "dots" }), /Style has an unknown field: shape/);
    await assert.rejects(save({ margin: 17 }), /^Error: Margin must be an integer from 0 to 16/);
    const list = () =>
      http("GET", "/v1/qrcodes", { key }).then((r) => (r.body as { qrcodes: { style: object }[] }).qrcodes[0].style);
    assert.deepEqual(await list(), {});
    await save({ foreground: "#ffffff", background: "#102030", error_correction: "Q", margin: 0 });
    assert.deepEqual(await list(), { foreground: "#ffffff", background: "#102030", error_correction: "Q", margin: 0 });
  });
});
