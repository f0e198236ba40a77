// Dynamic `vcard` and `page` codes (issue 44; docs/TYPES.md "Hosted pages"): /q answers a small
// mobile page made of the code's content, counted as a scan like a redirect; a contact card's
// `?format=vcf` is a vCard a parser (the `vcf` package) reads back field by field; content is
// checked, escaped, changeable, held for review, and under the same rules as a destination.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import vCard from "vcf";
import { db } from "../../server/platform/db";
import { EDGE_POLICY } from "../../server/platform/security-headers";
import { http, logIn, makeTeam, personalKey } from "../helpers";
import { scansOf } from "../scans";

type Dyn = {
  code: string;
  type: string;
  destination_url: string | null;
  content: Record<string, unknown> | null;
  pending_change: { fields: Record<string, unknown> } | null;
};
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

const CARD = {
  first_name: "Zoë",
  last_name: "Müller",
  organization: "Müller & Söhne, Berlin; GmbH",
  title: "Chefin",
  phones: ["+49 30 1234567", "+1 (555) 0100"],
  emails: ["zoe@example.com"],
  url: "https://example.com/zoe",
  address: "Hauptstr. 1\n10115 Berlin",
  note: "Line one\nLine two, with \\ and ;",
};
const PAGE = {
  title: "Café Linden",
  links: [
    { label: "Menu", url: "https://example.com/menu" },
    { label: "Book a table", url: "https://example.com/book?for=2&at=19" },
  ],
};

async function create(key: string, json: object): Promise<Dyn> {
  const r = await http("POST", "/v1/dynqrcodes", { key, json: { name: "Hosted", ...json } });
  assert.equal(r.status, 201, r.text);
  return (r.body as { created: Dyn[] }).created[0];
}
const idOf = async (code: string) => (await db.dynamicCode.findFirstOrThrow({ where: { code } })).id;
const scan = (path: string, init: { method?: string; ua?: string; body?: string } = {}) =>
  http(init.method ?? "GET", path, {
    headers: {
      "user-agent": init.ua ?? IPHONE,
      ...(init.body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: init.body,
  });

/** RFC 6350 TEXT unescaped (the parser keeps values as written). */
const unescaped = (value: string) =>
  value.replace(/\\([\\,;nN])/g, (_, c: string) => (c.toLowerCase() === "n" ? "\n" : c));
const values = (card: vCard, key: string) =>
  [card.get(key)]
    .flat()
    .filter(Boolean)
    .map((p) => p.valueOf() as string | string[]);

describe("hosted pages: dynamic vcard and page codes", () => {
  it("a page code: 201 with type and content, destination_url null; /q answers the page, 200, counted as a scan", async () => {
    const { key } = await personalKey();
    const rec = await create(key, { type: "page", content: PAGE });
    assert.equal(rec.type, "page");
    assert.equal(rec.destination_url, null);
    assert.deepEqual(rec.content, PAGE);
    assert.deepEqual((await http("GET", `/v1/dynqrcodes/${rec.code}`, { key })).body, rec);

    const r = await scan(`/q/${rec.code}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(r.headers.get("content-security-policy"), EDGE_POLICY);
    assert.equal(r.headers.get("x-frame-options"), "DENY");
    assert.equal(r.headers.get("x-content-type-options"), "nosniff");
    assert.ok(r.bytes.length < 30 * 1024, `${r.bytes.length} bytes`);
    assert.match(r.text, /<html lang="en">/);
    assert.match(r.text, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.match(r.text, /<h1>Café Linden<\/h1>/);
    assert.match(r.text, /<a href="https:\/\/example.com\/menu">Menu<\/a>/);
    assert.match(r.text, /<a href="https:\/\/example.com\/book\?for=2&#38;at=19">Book a table<\/a>/);
    assert.doesNotMatch(r.text, /<script/i);
    const scans = await scansOf(await idOf(rec.code), 1);
    assert.equal(scans.length, 1);
    assert.equal(scans[0].destinationUrl, "");
    // HEAD: the same answer without a body, and no scan.
    const head = await http("HEAD", `/q/${rec.code}`, { headers: { "user-agent": IPHONE } });
    assert.equal(head.status, 200);
    assert.equal(head.text, "");
  });

  it("a contact card: name, role, tel: and mailto: links, address and note; Save contact downloads a vCard a parser reads back, not a second scan", async () => {
    const { key } = await personalKey();
    const rec = await create(key, { type: "vcard", content: CARD });
    assert.equal(rec.destination_url, null);
    const page = await scan(`/q/${rec.code}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Zoë Müller<\/h1>/);
    assert.match(page.text, /Chefin · Müller &#38; Söhne, Berlin; GmbH/);
    assert.match(page.text, /<a href="tel:\+49301234567">\+49 30 1234567<\/a>/);
    assert.match(page.text, /<a href="tel:\+15550100">\+1 \(555\) 0100<\/a>/);
    assert.match(page.text, /<a href="mailto:zoe@example.com">zoe@example.com<\/a>/);
    assert.match(page.text, /Hauptstr. 1\n10115 Berlin/);
    assert.match(
      page.text,
      new RegExp(`<a class="button" href="/q/${rec.code}\\?format=vcf" download>Save contact</a>`),
    );

    const vcf = await scan(`/q/${rec.code}?format=vcf`);
    assert.equal(vcf.status, 200);
    assert.equal(vcf.headers.get("content-type"), "text/vcard; charset=utf-8");
    assert.equal(vcf.headers.get("content-disposition"), `attachment; filename="${rec.code}.vcf"`);
    const card = new vCard().parse(vcf.text);
    assert.equal(card.version, "3.0");
    assert.deepEqual(
      values(card, "fn").map((v) => unescaped(v as string)),
      ["Zoë Müller"],
    );
    assert.deepEqual(values(card, "n"), ["Müller;Zoë;;;"]);
    assert.deepEqual(
      values(card, "org").map((v) => unescaped(v as string)),
      [CARD.organization],
    );
    assert.deepEqual(values(card, "title"), ["Chefin"]);
    assert.deepEqual(values(card, "tel"), ["+49301234567", "+15550100"]);
    assert.deepEqual(values(card, "email"), ["zoe@example.com"]);
    assert.deepEqual(values(card, "url"), ["https://example.com/zoe"]);
    assert.deepEqual(
      values(card, "note").map((v) => unescaped(v as string)),
      [CARD.note],
    );
    // ADR's parts, as N's, come as one value: the street part is the third (this address holds no `;`).
    assert.equal(unescaped((values(card, "adr")[0] as string).split(";")[2]), CARD.address);

    // One scan: the page's; the download is not another.
    await scansOf(await idOf(rec.code), 2);
    assert.equal(await db.scanEvent.count({ where: { dynamicCodeId: await idOf(rec.code) } }), 1);
    // A url code ignores the parameter: it redirects, as always.
    const url = await create(key, { destination_url: "https://example.com/plain" });
    assert.equal((await scan(`/q/${url.code}?format=vcf`)).headers.get("location"), "https://example.com/plain");
  });

  it("escapes whatever the content holds", async () => {
    const { key } = await personalKey();
    const hostile = "<script>alert(1)</script>\"'&";
    const rec = await create(key, {
      type: "page",
      content: {
        title: hostile,
        links: [{ label: `"><img src=x onerror=alert(1)>`, url: "https://example.com/?q=\"'<>" }],
      },
    });
    const r = await scan(`/q/${rec.code}`);
    assert.equal(r.status, 200);
    assert.doesNotMatch(r.text, /<script|<img|onerror=alert\(1\)>/);
    assert.match(r.text, /<h1>&#60;script&#62;alert\(1\)&#60;\/script&#62;&#34;&#39;&#38;<\/h1>/);
    const card = await create(key, { type: "vcard", content: { first_name: hostile, note: "</p><script>x</script>" } });
    const page = await scan(`/q/${card.code}`);
    assert.doesNotMatch(page.text, /<script/);
    assert.match(page.text, /<title>&#60;script&#62;/);
  });

  it("refuses bad content by field, in the contract's format, and stores nothing", async () => {
    const { key, user } = await personalKey();
    const link = { label: "A", url: "https://example.com/a" };
    const cases: [object, string][] = [
      [{ type: "page" }, "content is required for type page"],
      [{ type: "page", content: { title: "T", links: [] } }, "content.links holds 1 to 20 links"],
      [{ type: "page", content: { title: "T", links: Array(21).fill(link) } }, "content.links holds 1 to 20 links"],
      [{ type: "page", content: { links: [link] } }, "content.title is required"],
      [
        { type: "page", content: { title: "T", links: [link], extra: 1 } },
        "content has an unknown field for type page: extra",
      ],
      [
        { type: "page", content: { title: "T", links: [link, { label: "B", url: "javascript:alert(1)" }] } },
        "content.links[1].url",
      ],
      [
        { type: "page", content: { title: "T", links: [{ label: "", url: "https://example.com" }] } },
        "content.links[0].label",
      ],
      [
        { type: "page", destination_url: "https://example.com", content: PAGE },
        "destination_url must be null for type page",
      ],
      [{ type: "vcard", content: { last_name: "X" } }, "content.first_name is required"],
      [{ destination_url: "https://example.com", content: PAGE }, "content is only for types vcard and page"],
      [{ type: "wifi", content: PAGE }, "type must be one of url, vcard, page"],
    ];
    for (const [json, message] of cases) {
      const r = await http("POST", "/v1/dynqrcodes", { key, json: { name: "Bad", ...json } });
      assert.equal(r.status, 400, `${JSON.stringify(json).slice(0, 80)}: ${r.text}`);
      assert.ok(r.text.includes(message), `${message} in ${r.text}`);
    }
    const batch = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: {
        dynqrcodes: [
          { name: "ok", type: "page", content: PAGE },
          { name: "bad", type: "page", content: {} },
        ],
      },
    });
    assert.equal(batch.status, 400, batch.text);
    assert.deepEqual(batch.body, { errors: [{ index: 1, error: "content.title is required" }] });
    assert.equal(await db.dynamicCode.count({ where: { userId: user.id } }), 0);
  });

  it("PATCH changes the page after printing; a new type takes its own fields; a url code becomes a page and back", async () => {
    const { key } = await personalKey();
    const rec = await create(key, { type: "page", content: PAGE });
    await scan(`/q/${rec.code}`); // cached
    const changed = { title: "Winter menu", links: [{ label: "Soups", url: "https://example.com/soups" }] };
    const r = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json: { content: changed } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((r.body as Dyn).content, changed);
    assert.match((await scan(`/q/${rec.code}`)).text, /<h1>Winter menu<\/h1>/);
    // A destination on a page code is refused; with type url it turns it into a redirect.
    const refused = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, {
      key,
      json: { destination_url: "https://example.com/x" },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /destination_url must be null for type page/);
    const toUrl = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, {
      key,
      json: { type: "url", destination_url: "https://example.com/x" },
    });
    assert.equal(toUrl.status, 200, toUrl.text);
    assert.deepEqual([(toUrl.body as Dyn).type, (toUrl.body as Dyn).content], ["url", null]);
    assert.equal((await scan(`/q/${rec.code}`)).headers.get("location"), "https://example.com/x");
    const toCard = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json: { type: "vcard", content: CARD } });
    assert.equal(toCard.status, 200, toCard.text);
    assert.equal((toCard.body as Dyn).destination_url, null);
    assert.match((await scan(`/q/${rec.code}`)).text, /Save contact/);
    // The batch PATCH too.
    const batch = await http("PATCH", "/v1/dynqrcodes/batch", {
      key,
      json: { dynqrcodes: [{ code: rec.code, type: "page", content: PAGE }] },
    });
    assert.equal(batch.status, 200, batch.text);
    assert.match((await scan(`/q/${rec.code}`)).text, /<h1>Café Linden<\/h1>/);
  });

  it("rules: a matching target redirects, else the page; a password guards the page and the download; expiry ends both", async () => {
    const { key } = await personalKey();
    const targeted = await create(key, {
      type: "page",
      content: PAGE,
      targets: [{ device: "desktop", url: "https://example.com/desktop" }],
    });
    assert.equal(
      (await scan(`/q/${targeted.code}`, { ua: DESKTOP })).headers.get("location"),
      "https://example.com/desktop",
    );
    assert.equal((await scan(`/q/${targeted.code}`)).status, 200);
    const scans = await scansOf(await idOf(targeted.code), 2);
    assert.deepEqual(scans.map((s) => s.destinationUrl).sort(), ["", "https://example.com/desktop"]);

    const locked = await create(key, { type: "vcard", content: CARD, password: "open sesame" });
    const form = await scan(`/q/${locked.code}`);
    assert.equal(form.status, 200);
    assert.match(form.text, /This QR code is protected/);
    assert.doesNotMatch(form.text, /Müller/);
    const wrong = await scan(`/q/${locked.code}`, { method: "POST", body: "password=nope" });
    assert.equal(wrong.status, 401);
    const open = await scan(`/q/${locked.code}`, { method: "POST", body: "password=open+sesame" });
    assert.equal(open.status, 200);
    assert.match(open.text, /<h1>Zoë Müller<\/h1>/);
    assert.match(open.text, new RegExp(`<form method="post" action="/q/${locked.code}\\?format=vcf">`));
    assert.equal((await scan(`/q/${locked.code}?format=vcf`)).headers.get("content-type"), "text/html; charset=utf-8");
    const download = await scan(`/q/${locked.code}?format=vcf`, { method: "POST", body: "password=open+sesame" });
    assert.equal(download.headers.get("content-type"), "text/vcard; charset=utf-8");
    assert.match(download.text, /^BEGIN:VCARD\r\n/);

    const ending = await create(key, { type: "page", content: PAGE, expires_at: Math.floor(Date.now() / 1000) + 3600 });
    await db.dynamicCode.updateMany({ where: { code: ending.code }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const patched = await http("PATCH", `/v1/dynqrcodes/${ending.code}`, { key, json: { name: "Ended" } });
    assert.equal(patched.status, 200); // the change invalidates the cached resolution
    assert.equal((await scan(`/q/${ending.code}`)).status, 410);
  });

  it("review: a writer's content change on a published team code is held until an admin approves it", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const rec = await create(writer.key, { type: "page", content: PAGE });
    const publish = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, {
      key: team.adminKey,
      json: { status: "active" },
    });
    assert.equal(publish.status, 200, publish.text);
    const changed = { title: "Held back", links: [{ label: "New", url: "https://example.com/new" }] };
    const held = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key: writer.key, json: { content: changed } });
    assert.equal(held.status, 202, held.text);
    assert.deepEqual((held.body as Dyn).content, PAGE, "live content unchanged");
    assert.deepEqual((held.body as Dyn).pending_change!.fields, {
      type: "page",
      destination_url: null,
      content: changed,
    });
    assert.match((await scan(`/q/${rec.code}`)).text, /<h1>Café Linden<\/h1>/);
    const admin = await logIn(team.admin.email);
    await admin("team.reviewChange", { code: rec.code, decision: "approve" });
    assert.match((await scan(`/q/${rec.code}`)).text, /<h1>Held back<\/h1>/);
    const after = (await http("GET", `/v1/dynqrcodes/${rec.code}`, { key: writer.key })).body as Dyn;
    assert.deepEqual([after.content, after.pending_change], [changed, null]);
  });

  it("exports carry type and content; the bundle moves them to another library", async () => {
    const source = await personalKey();
    const page = await create(source.key, { type: "page", content: PAGE });
    await scan(`/q/${page.code}`);
    await scansOf(await idOf(page.code), 1);
    const csv = await http("GET", "/v1/dynqrcodes/export", { key: source.key });
    const [header, row] = csv.text.trim().split("\r\n");
    assert.match(header, /,type,content$/);
    assert.ok(row.includes(`,page,"${JSON.stringify(PAGE).replace(/"/g, '""')}"`), row);

    const bundle = await http("GET", "/v1/bundle", { key: source.key });
    assert.equal(bundle.status, 200);
    const line = bundle.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((l) => l.type === "dynamic");
    assert.deepEqual([line.code_type, line.destination_url, line.content], ["page", null, PAGE]);
    // Into another library on this instance: under a code of its own (a code is never taken twice).
    const target = await personalKey();
    const moved = `m${page.code}`;
    const imported = await http("POST", "/v1/bundle", {
      key: target.key,
      body: bundle.text.replaceAll(`"code":"${page.code}"`, `"code":"${moved}"`),
      headers: { "content-type": "application/x-ndjson" },
    });
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual((imported.body as { created: object }).created, { static: 0, dynamic: 1, scans: 1 });
    const copy = (await http("GET", `/v1/dynqrcodes/${moved}`, { key: target.key })).body as Dyn;
    assert.deepEqual([copy.type, copy.destination_url, copy.content], ["page", null, PAGE]);
    assert.match((await scan(`/q/${moved}`)).text, /<h1>Café Linden<\/h1>/);
  });
});
