// Every kind of code's payload (server/codeTypes/payload.ts): each escape, folding, time zones,
// and each type drawn and read back by zxing-cpp and jsQR to exactly the payload (non-ASCII too).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  contentPayload,
  decimal,
  dialable,
  escapeWifi,
  mailto,
  utcStamp,
  vcard,
  wifi,
} from "../../server/codeTypes/payload";
import { escapeText, foldLine } from "../../server/codeTypes/textLines";
import { CONTENT_SCHEMAS, instantOf, type Content, type ContentType } from "../../server/codeTypes/content";
import { renderPng } from "../../server/images/qrImage";
import { decodePng, decodePngZxing } from "../qr-decode";

const unfold = (text: string) => text.replace(/\r\n /g, "");
const octets = (line: string) => Buffer.byteLength(line);

describe("code payloads", () => {
  it('Wi-Fi: \\ ; , : and " escaped with a backslash, P left out of an open network, H only when hidden', () => {
    assert.equal(escapeWifi(`a\\b;c,d:e"f`), `a\\\\b\\;c\\,d\\:e\\"f`);
    assert.equal(
      wifi({ ssid: `Café;"Gäste"`, password: "a:b,c\\d;", encryption: "WPA", hidden: true }),
      `WIFI:T:WPA;S:Café\\;\\"Gäste\\";P:a\\:b\\,c\\\\d\\;;H:true;;`,
    );
    assert.equal(wifi({ ssid: "Open", encryption: "nopass" }), "WIFI:T:nopass;S:Open;;");
    assert.equal(wifi({ ssid: "W", password: "12345", encryption: "WEP", hidden: false }), "WIFI:T:WEP;S:W;P:12345;;");
  });

  it("mailto: address, subject and body percent-encoded as UTF-8, line breaks as %0D%0A", () => {
    assert.equal(mailto({ to: "a@b.de" }), "mailto:a@b.de");
    assert.equal(
      mailto({ to: "x+y@b.de", subject: "Grüße & mehr?", body: "Zeile 1\nZeile 2#" }),
      "mailto:x%2By@b.de?subject=Gr%C3%BC%C3%9Fe%20%26%20mehr%3F&body=Zeile%201%0D%0AZeile%202%23",
    );
    assert.equal(mailto({ to: "a@b.de", body: "x" }), "mailto:a@b.de?body=x");
  });

  it("tel: and SMSTO: dial the digits and a leading +; the SMS body goes raw after the second colon", () => {
    assert.equal(dialable(" +49 (30) 123-45.6 "), "+4930123456");
    assert.equal(contentPayload("phone", { number: "030 1234" }), "tel:0301234");
    assert.equal(
      contentPayload("sms", { number: "+1 555 0100", body: "STOP: now; ok" }),
      "SMSTO:+15550100:STOP: now; ok",
    );
    assert.equal(contentPayload("sms", { number: "112" }), "SMSTO:112:");
  });

  it("geo: plain decimals, never exponents, at most 7 places", () => {
    assert.equal(contentPayload("geo", { latitude: 52.520008, longitude: 13.404954 }), "geo:52.520008,13.404954");
    assert.equal(decimal(-0.0000001), "-0.0000001");
    assert.equal(decimal(1e-9), "0");
    assert.equal(decimal(-1e-9), "0");
    assert.equal(decimal(90), "90");
    assert.equal(decimal(-180), "-180");
  });

  it("vCard and iCalendar TEXT: \\ ; , escaped, every line break as \\n", () => {
    assert.equal(escapeText("a\\b;c,d\r\ne\rf\ng"), "a\\\\b\\;c\\,d\\ne\\nf\\ng");
  });

  it("folds at 75 octets, continuing with CRLF and a space, never inside a UTF-8 sequence", () => {
    const line = `NOTE:${"a".repeat(67)}€😀${"ü".repeat(100)}`;
    const folded = foldLine(line);
    for (const part of folded.split("\r\n")) assert.ok(octets(part) <= 75, `${octets(part)} octets: ${part}`);
    assert.equal(unfold(folded), line);
    // "€" (3 octets) fits after 72; the emoji (4) does not and moves whole to the next line.
    assert.equal(folded.split("\r\n")[0], `NOTE:${"a".repeat(67)}€`);
    assert.ok(folded.split("\r\n")[1].startsWith(" 😀"));
    assert.equal(foldLine("x".repeat(75)), "x".repeat(75));
    assert.equal(foldLine("x".repeat(76)), `${"x".repeat(75)}\r\n x`);
  });

  it("vCard 3.0: CRLF lines, N and FN, escaped values, phones dialable, ends with END:VCARD", () => {
    const card = vcard({
      first_name: "Zoë",
      last_name: "Müller",
      organization: "Müller & Söhne, Berlin; GmbH",
      title: "Chef\\Cook",
      phones: ["+49 30 1234567", "0171 2345"],
      emails: ["zoe@example.com"],
      url: "https://example.com/a;b,c",
      address: "Hauptstr. 1\n10115 Berlin",
      note: "Allergies: none",
    });
    assert.equal(
      card,
      [
        "BEGIN:VCARD",
        "VERSION:3.0",
        "N:Müller;Zoë;;;",
        "FN:Zoë Müller",
        "ORG:Müller & Söhne\\, Berlin\\; GmbH",
        "TITLE:Chef\\\\Cook",
        "TEL;TYPE=VOICE:+49301234567",
        "TEL;TYPE=VOICE:01712345",
        "EMAIL;TYPE=INTERNET:zoe@example.com",
        "URL:https://example.com/a\\;b\\,c",
        "ADR;TYPE=WORK:;;Hauptstr. 1\\n10115 Berlin;;;;",
        "NOTE:Allergies: none",
        "END:VCARD",
        "",
      ].join("\r\n"),
    );
    assert.equal(vcard({ first_name: "Ann" }), "BEGIN:VCARD\r\nVERSION:3.0\r\nN:;Ann;;;\r\nFN:Ann\r\nEND:VCARD\r\n");
  });

  it("iCalendar: times to UTC in the Z form, whatever offset was sent; text escaped and folded", () => {
    assert.equal(utcStamp("2026-07-04T18:00:00+02:00"), "20260704T160000Z");
    assert.equal(utcStamp("2026-12-31T23:30-05:30"), "20270101T050000Z");
    assert.equal(utcStamp("2026-01-01T00:00:00.999Z"), "20260101T000000Z");
    const event = contentPayload("event", {
      title: "Sommerfest, groß; mit Grill",
      start: "2026-07-04T18:00:00+02:00",
      end: "2026-07-04T23:00:00+02:00",
      location: "Hof",
      description: `Bring: ${"Salat ".repeat(20)}`,
    });
    const lines = event.split("\r\n");
    assert.deepEqual(lines.slice(0, 8), [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//qr-records//static code//EN",
      "BEGIN:VEVENT",
      "SUMMARY:Sommerfest\\, groß\\; mit Grill",
      "DTSTART:20260704T160000Z",
      "DTEND:20260704T210000Z",
      "LOCATION:Hof",
    ]);
    assert.ok(lines.every((line) => octets(line) <= 75));
    assert.ok(unfold(event).includes(`DESCRIPTION:Bring: ${"Salat ".repeat(20)}\r\n`));
    assert.ok(event.endsWith("END:VEVENT\r\nEND:VCALENDAR\r\n"));
  });

  it("times: an offset is required; days and hours that do not exist are refused", () => {
    assert.equal(instantOf("2026-07-04T18:00:00+02:00"), Date.UTC(2026, 6, 4, 16));
    for (const bad of [
      "2026-07-04T18:00:00",
      "2026-02-30T10:00Z",
      "2026-07-04T24:00Z",
      "2026-07-04 18:00Z",
      "2026-07-04T10:00+19:00",
    ])
      assert.equal(instantOf(bad), null, bad);
  });
});

/** One example of each type, non-ASCII wherever a field takes it. */
const EXAMPLES: { [T in ContentType]: Content[T] } = {
  text: { text: "Grüße aus Köln — 東京 😀\nZeile 2" },
  email: { to: "zoë@example.com", subject: "Tisch für zwei", body: "Hallo,\nbis bald!" },
  phone: { number: "+49 30 1234567" },
  sms: { number: "+49 30 1234567", body: "Menü: bitte" },
  wifi: { ssid: "Café;Gäste", password: 'pa:ss,wo"rd\\1', encryption: "WPA", hidden: true },
  vcard: {
    first_name: "Zoë",
    last_name: "Müller",
    organization: "Müller & Söhne, Berlin",
    phones: ["+49 30 1234567"],
    emails: ["zoe@example.com"],
    url: "https://example.com",
    address: "Hauptstraße 1, 10115 Berlin",
    note: `${"Notiz ".repeat(20)}東京`,
  },
  geo: { latitude: -33.8567844, longitude: 151.213108 },
  event: {
    title: "Sommerfest, groß",
    start: "2026-07-04T18:00:00+02:00",
    end: "2026-07-04T23:00:00+02:00",
    location: "Hof; hinten",
    description: "Bring Salat\nund Laune",
  },
};

describe("every type reads back", () => {
  for (const type of Object.keys(EXAMPLES) as ContentType[])
    it(`${type}: the examples pass their schema, and zxing and jsQR read the payload back exactly`, async () => {
      assert.ok(CONTENT_SCHEMAS[type].safeParse(EXAMPLES[type]).success);
      const payload = contentPayload(type, EXAMPLES[type] as never);
      const png = await renderPng(payload, {}, 600);
      assert.equal(await decodePngZxing(png), payload);
      assert.equal(decodePng(png), payload);
    });
});
