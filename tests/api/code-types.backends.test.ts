// Static codes of every type over HTTP (issue 44; docs/TYPES.md): create, batch, read, list,
// PATCH, the images and the ZIP decoded by zxing and jsQR to the standard payload, the CSV export.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { http, personalKey } from "../helpers";
import { decodePng, decodePngZxing } from "../qr-decode";
import { unzip } from "../unzip";
import { cli, dir } from "../cli-runner";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { contentPayload } from "../../server/codeTypes/payload";
import type { ContentType } from "../../server/codeTypes/content";

type Rec = { qr_id: string; type: string; url: string | null; content: Record<string, unknown> | null; name: string };

const CONTENTS: Record<ContentType, Record<string, unknown>> = {
  text: { text: "Grüße aus Köln 😀\nZeile 2" },
  email: { to: "bookings@example.com", subject: "Tisch für zwei", body: "Hallo,\nbis bald" },
  phone: { number: "+49 30 1234567" },
  sms: { number: "+1 (555) 0100", body: "MENU: lunch" },
  wifi: { ssid: "Café;Gäste", password: 'pa:ss,wo"rd\\1', encryption: "WPA", hidden: true },
  vcard: { first_name: "Zoë", last_name: "Müller", organization: "Müller & Söhne, Berlin", phones: ["+49 30 1"] },
  geo: { latitude: 52.520008, longitude: 13.404954 },
  event: { title: "Sommerfest, groß", start: "2026-07-04T18:00:00+02:00", end: "2026-07-04T23:00:00+02:00" },
};
const TYPES = Object.keys(CONTENTS) as ContentType[];
const expected = (type: ContentType) => contentPayload(type, CONTENTS[type] as never);

async function png(key: string, qrId: string) {
  const r = await http("GET", `/v1/qrcodes/${qrId}/image?format=png&size=600`, { key });
  assert.equal(r.status, 200, r.text);
  return r.bytes;
}

describe("static codes of every type", () => {
  it("POST each type → 201 with type and content, url null; GET, the list and the image (zxing and jsQR) agree", async () => {
    const { key } = await personalKey();
    for (const type of TYPES) {
      const r = await http("POST", "/v1/qrcodes", { key, json: { type, name: `A ${type}`, content: CONTENTS[type] } });
      assert.equal(r.status, 201, `${type}: ${r.text}`);
      const [rec] = (r.body as { created: Rec[] }).created;
      assert.equal(rec.type, type);
      assert.equal(rec.url, null);
      assert.deepEqual(rec.content, CONTENTS[type]);
      assert.deepEqual((await http("GET", `/v1/qrcodes/${rec.qr_id}`, { key })).body, rec);
      const image = await png(key, rec.qr_id);
      assert.equal(decodePng(image), expected(type), `${type} by jsQR`);
      assert.equal(await decodePngZxing(image), expected(type), `${type} by zxing`);
      for (const format of ["svg", "pdf"])
        assert.equal((await http("GET", `/v1/qrcodes/${rec.qr_id}/image?format=${format}`, { key })).status, 200);
    }
    // The Wi-Fi payload spelled out: every special character escaped.
    assert.equal(expected("wifi"), `WIFI:T:WPA;S:Café\\;Gäste;P:pa\\:ss\\,wo\\"rd\\\\1;H:true;;`);
    const list = (await http("GET", "/v1/qrcodes?limit=100", { key })).body as { qrcodes: Rec[] };
    assert.deepEqual(list.qrcodes.map((q) => q.type).reverse(), TYPES);
  });

  it("a url code is as before, with type url and content null; type url is the default", async () => {
    const { key } = await personalKey();
    const r = await http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com/a", name: "Menu" } });
    const [rec] = (r.body as { created: Rec[] }).created;
    assert.equal(rec.type, "url");
    assert.equal(rec.content, null);
    assert.equal(decodePng(await png(key, rec.qr_id)), "https://example.com/a");
    const explicit = await http("POST", "/v1/qrcodes", {
      key,
      json: { type: "url", url: "https://example.com/b", name: "B", content: null },
    });
    assert.equal(explicit.status, 201, explicit.text);
  });

  it("refusals name the field, in the contract's format, and store nothing", async () => {
    const { key } = await personalKey();
    const cases: [unknown, string][] = [
      [
        { type: "wifi", content: { ssid: "x".repeat(33), encryption: "nopass" } },
        "content.ssid must be 1 to 32 bytes (UTF-8)",
      ],
      [
        { type: "wifi", content: { ssid: "ä".repeat(17), encryption: "nopass" } },
        "content.ssid must be 1 to 32 bytes (UTF-8)",
      ],
      [
        { type: "wifi", content: { ssid: "x", encryption: "WPA" } },
        "content.password is required when encryption is WPA",
      ],
      [
        { type: "wifi", content: { ssid: "x", encryption: "WPA2", password: "12345678" } },
        "content.encryption must be one of WPA, WEP, nopass",
      ],
      [
        { type: "vcard", content: { first_name: "A", phones: Array(11).fill("+4930123") } },
        "content.phones holds at most 10 items",
      ],
      [
        { type: "vcard", content: { first_name: "A", emails: ["a@b.de", "nope"] } },
        "content.emails[1] must be one email address like name@example.com (at most 254 characters)",
      ],
      [{ type: "vcard", content: { last_name: "A" } }, "content.first_name is required"],
      [{ type: "text", content: { text: "a", extra: 1 } }, "content has an unknown field for type text: extra"],
      [{ type: "text" }, "content is required for type text"],
      [
        { type: "text", url: "https://example.com", content: { text: "a" } },
        "url must be null for type text: its fields go in content",
      ],
      [
        { url: "https://example.com", content: { text: "a" } },
        "content is only for types other than url: send the address as url",
      ],
      [{ type: "qr", content: {} }, "type must be one of url, text, email, phone, sms, wifi, vcard, geo, event"],
      [{ type: "geo", content: { latitude: 91, longitude: 0 } }, "content.latitude must be a number from -90 to 90"],
      [{ type: "geo", content: { latitude: "52", longitude: 0 } }, "content.latitude must be a number"],
      [
        { type: "event", content: { title: "a", start: "2026-07-04T18:00:00" } },
        "content.start must be an ISO 8601 time with an offset, like 2026-12-24T18:00:00+01:00",
      ],
      [
        { type: "phone", content: { number: "call me" } },
        "content.number must be a phone number of digits, an optional leading +, spaces, dashes, dots or parentheses (at most 32 characters)",
      ],
      [{ type: "text", content: { text: "a".repeat(2001) } }, "content.text must be 1 to 2000 characters"],
      [{ type: "text", content: { text: "a".repeat(1_000_000) } }, "content.text must be 1 to 2000 characters"],
      [
        { type: "text", content: { text: "😀".repeat(1000) }, style: { error_correction: "H" } },
        "content is too long for a QR code at error correction H: at most 1273 bytes (UTF-8)",
      ],
    ];
    for (const [fields, error] of cases) {
      const r = await http("POST", "/v1/qrcodes", { key, json: { name: "x", ...(fields as object) } });
      assert.equal(r.status, 400, JSON.stringify(fields).slice(0, 200));
      assert.deepEqual(r.body, { error });
    }
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key })).body, { qrcodes: [], next_cursor: null });
  });

  it("a batch takes every type at once; one invalid item fails it, listed by index", async () => {
    const { key } = await personalKey();
    const items = TYPES.map((type) => ({ type, name: type, content: CONTENTS[type] }));
    const bad = await http("POST", "/v1/qrcodes/batch", {
      key,
      json: { qrcodes: [...items, { type: "sms", name: "x", content: { body: "hi" } }] },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { errors: [{ index: TYPES.length, error: "content.number is required" }] });
    const ok = await http("POST", "/v1/qrcodes/batch", { key, json: { qrcodes: items } });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(
      (ok.body as { created: Rec[] }).created.map((r) => [r.type, r.content]),
      TYPES.map((t) => [t, CONTENTS[t]]),
    );
    // The ZIP draws each payload.
    const zip = await http("GET", "/v1/qrcodes/images.zip?format=png&size=500", { key });
    assert.equal(zip.status, 200);
    const entries = await unzip(zip.bytes);
    const byId = new Map((ok.body as { created: Rec[] }).created.map((r) => [r.qr_id, r.type as ContentType]));
    assert.equal(entries.length, TYPES.length);
    for (const entry of entries) {
      const type = byId.get(entry.name.slice(0, entry.name.indexOf("-")))!;
      assert.equal(decodePng(entry.data), expected(type), entry.name);
    }
  });

  it("PATCH changes content (whole), or the type with its own url or content; the image follows", async () => {
    const { key } = await personalKey();
    const created = await http("POST", "/v1/qrcodes", {
      key,
      json: { type: "wifi", name: "Wi-Fi", content: CONTENTS.wifi },
    });
    const { qr_id } = (created.body as { created: Rec[] }).created[0];
    const open = { ssid: "Gäste", encryption: "nopass" };
    const r = await http("PATCH", `/v1/qrcodes/${qr_id}`, { key, json: { content: open } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((r.body as Rec).content, open);
    assert.equal(decodePng(await png(key, qr_id)), "WIFI:T:nopass;S:Gäste;;");
    const refused = await http("PATCH", `/v1/qrcodes/${qr_id}`, {
      key,
      json: { content: { ssid: "x", encryption: "WEP" } },
    });
    assert.deepEqual(refused.body, { error: "content.password is required when encryption is WEP" });
    assert.deepEqual((await http("PATCH", `/v1/qrcodes/${qr_id}`, { key, json: { type: "url" } })).body, {
      error: "url is required",
    });
    assert.deepEqual(
      (await http("PATCH", `/v1/qrcodes/${qr_id}`, { key, json: { url: "https://example.com" } })).body,
      {
        error: "url must be null for type wifi: its fields go in content",
      },
    );
    const toUrl = await http("PATCH", `/v1/qrcodes/${qr_id}`, {
      key,
      json: { type: "url", url: "https://example.com/x" },
    });
    assert.equal(toUrl.status, 200, toUrl.text);
    assert.deepEqual(
      [(toUrl.body as Rec).type, (toUrl.body as Rec).url, (toUrl.body as Rec).content],
      ["url", "https://example.com/x", null],
    );
    const toGeo = await http("PATCH", `/v1/qrcodes/${qr_id}`, {
      key,
      json: { type: "geo", url: null, content: CONTENTS.geo },
    });
    assert.equal(toGeo.status, 200, toGeo.text);
    assert.equal(decodePng(await png(key, qr_id)), "geo:52.520008,13.404954");
    const batch = await http("PATCH", "/v1/qrcodes/batch", {
      key,
      json: { qrcodes: [{ qr_id, content: { latitude: 0, longitude: 200 } }] },
    });
    assert.deepEqual(batch.body, {
      errors: [{ index: 0, error: "content.longitude must be a number from -180 to 180" }],
    });
  });

  it("the CSV export carries type and content (JSON)", async () => {
    const { key } = await personalKey();
    await http("POST", "/v1/qrcodes", { key, json: { type: "geo", name: "Place", content: CONTENTS.geo } });
    await http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com/m", name: "Menu" } });
    const csv = await http("GET", "/v1/qrcodes/export", { key });
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      rows.map((r) => [r.name, r.type, r.url, r.content]),
      [
        ["Place", "geo", "", JSON.stringify(CONTENTS.geo)],
        ["Menu", "url", "https://example.com/m", ""],
      ],
    );
  });

  it("qr-records import: a type column and one column per field; a bad cell is refused by line", async () => {
    const { key } = await personalKey();
    const file = path.join(dir, "typed.csv");
    writeFileSync(
      file,
      [
        "name,url,type,wifi_ssid,wifi_password,wifi_encryption,wifi_hidden,vcard_first_name,vcard_phones,geo_latitude,geo_longitude",
        "Menu,https://example.com/menu,,,,,,,,,",
        'Guest Wi-Fi,,wifi,"Café;Gäste",espresso:2026,WPA,true,,,,',
        'Card,,vcard,,,,,Zoë,"+49 30 1; +49 171 2",,',
        "Place,,geo,,,,,,,52.520008,13.404954",
        "Bad place,,geo,,,,,,,north,13",
        "Stray,,geo,Net,,,,,,1,2",
      ].join("\n"),
    );
    const run = await cli(["import", file], key);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stdout, /line 6: content.latitude must be a number/);
    assert.match(run.stdout, /line 7: wifi_ssid is only for type wifi/);
    const list = (await http("GET", "/v1/qrcodes", { key })).body as { qrcodes: Rec[] };
    assert.deepEqual(
      list.qrcodes.reverse().map((r) => [r.name, r.type, r.url, r.content]),
      [
        ["Menu", "url", "https://example.com/menu", null],
        [
          "Guest Wi-Fi",
          "wifi",
          null,
          { ssid: "Café;Gäste", password: "espresso:2026", encryption: "WPA", hidden: true },
        ],
        ["Card", "vcard", null, { first_name: "Zoë", phones: ["+49 30 1", "+49 171 2"] }],
        ["Place", "geo", null, { latitude: 52.520008, longitude: 13.404954 }],
      ],
    );
  });
});
