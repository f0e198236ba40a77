// Small rules at the edges that need no server: webhook signatures (Standard Webhooks' own test
// vector) and the outbox body, which client address counts, the hosts a request reached, the
// Idempotency-Key and API key shapes, the password form's field, CSV cells, ids' order, the
// mails' HTML escaping, and the memo the scan writer's per-agent work uses.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clientAddress } from "../../server/platform/client-address";
import { presentedKey } from "../../server/keys/apiKeys";
import { DomainError } from "../../server/platform/errors";
import { csvChunks } from "../../server/http/csv";
import { firstIdAt, timeOrderedId } from "../../server/platform/ids";
import { idempotencyKeyOf } from "../../server/idempotency";
import { bodies } from "../../server/platform/mail";
import { memoize } from "../../server/platform/memoize";
import { passwordOfForm } from "../../server/scan/redirect";
import { servedHostsOf } from "../../server/platform/served-host";
import { outboxEvent } from "../../server/webhooks/payload";
import { signatureHeaders } from "../../server/webhooks/signature";

const headers = (values: Record<string, string>) => new Headers(values);
const refused = (code: string) => (e: unknown) => e instanceof DomainError && e.code === code;

describe("webhooks", () => {
  it("signs as Standard Webhooks' test vector says", () => {
    assert.deepEqual(
      signatureHeaders(
        ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        '{"test": 2432232314}',
        1614265330,
      ),
      {
        "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
        "webhook-timestamp": "1614265330",
        "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
      },
    );
  });

  it("an event's body: its type, an ISO 8601 timestamp in whole seconds, the data as given; a new time-ordered id", () => {
    const data = {
      code: "AbCd1234",
      scanned_at: 1795392000,
      country: "DE",
      device: "mobile",
      os: "iOS",
      browser: "Mobile Safari",
      unique: true,
    };
    const { id, payload } = outboxEvent({ type: "scan.created", data }, Date.parse("2026-11-20T10:00:00.999Z"));
    assert.match(id, /^evt_[0-9a-z]{21}$/);
    assert.deepEqual(JSON.parse(payload), { type: "scan.created", timestamp: "2026-11-20T10:00:00Z", data });
  });
});

describe("requests", () => {
  it("without TRUST_PROXY the last X-Forwarded-For entry counts (the one the host appended)", () => {
    assert.equal(clientAddress(headers({ "x-forwarded-for": "1.2.3.4, 10.0.0.1 ,203.0.113.9" })), "203.0.113.9");
    assert.equal(clientAddress(headers({})), "unknown");
    assert.equal(clientAddress(headers({ "x-forwarded-for": " , " })), "unknown");
  });

  it("the hosts reached: Host and each X-Forwarded-Host, as URL writes them; junk left out", () => {
    assert.deepEqual(
      servedHostsOf(headers({ host: "QR.Example:80", "x-forwarded-host": "a.example:443, b.example:8443" })),
      ["qr.example", "a.example:443", "b.example:8443"],
    );
    assert.deepEqual(servedHostsOf(headers({ host: "bad host^" })), []);
  });

  it("an Idempotency-Key is 1 to 255 printable ASCII characters", () => {
    assert.equal(idempotencyKeyOf(null), null);
    assert.equal(idempotencyKeyOf("order 42 ~!"), "order 42 ~!");
    assert.equal(idempotencyKeyOf("k".repeat(255))?.length, 255);
    for (const bad of ["", "k".repeat(256), "tab\there", "ünï"])
      assert.throws(() => idempotencyKeyOf(bad), refused("invalid"), JSON.stringify(bad));
  });

  it("an API key is judged by its shape before any lookup: missing, malformed, or its scope by prefix", () => {
    const body = "A".repeat(40);
    assert.equal(presentedKey(`qrp_${body}`).scope, "personal");
    assert.equal(presentedKey(` qrb_${body} `).scope, "business");
    assert.equal(
      presentedKey(`qrb_${body}`).hash,
      presentedKey(` qrb_${body}`).hash,
      "surrounding spaces do not change the key",
    );
    assert.match(presentedKey(`qrp_${body}`).hash, /^[0-9a-f]{64}$/);
    assert.throws(() => presentedKey(null), refused("missing_key"));
    assert.throws(() => presentedKey(""), refused("missing_key"));
    for (const bad of [`qrx_${body}`, `qrp_${body}A`, `qrp_${"A".repeat(39)}-`, "Bearer x"])
      assert.throws(() => presentedKey(bad), refused("invalid_key"), bad);
  });

  it("the password form's field, empty when absent", () => {
    assert.equal(passwordOfForm("password=a%20b%26c&x=1"), "a b&c");
    assert.equal(passwordOfForm("x=1"), "");
  });
});

describe("outputs", () => {
  const csv = async (rows: unknown[][]) => {
    let out = "";
    for await (const chunk of csvChunks(
      ["a", "b"],
      (async function* () {
        yield rows;
      })(),
    ))
      out += chunk;
    return out;
  };

  it("CSV: RFC 4180 quoting, dates in ISO seconds, empty nulls, formulas defused", async () => {
    assert.equal(
      await csv([
        ["plain", 1],
        ['say "hi", twice', "line\r\nbreak"],
        [new Date("2026-11-20T10:00:00.500Z"), null],
        ["=HYPERLINK(1)", "+1"],
        ["-2", "@x"],
        [true, undefined],
      ]),
      'a,b\r\nplain,1\r\n"say ""hi"", twice","line\r\nbreak"\r\n2026-11-20T10:00:00Z,\r\n\'=HYPERLINK(1),\'+1\r\n\'-2,\'@x\r\ntrue,\r\n',
    );
  });

  it("ids sort by time and, within a millisecond, by the order they were made", () => {
    const ids = Array.from({ length: 50 }, () => timeOrderedId("scan"));
    assert.deepEqual([...ids].sort(), ids);
    assert.ok(firstIdAt("scan", Date.now() + 1) > ids[ids.length - 1]);
    assert.ok(firstIdAt("scan", Date.now() - 60_000) < ids[0]);
  });

  it("a mail's HTML escapes what it quotes; its text keeps it as written", () => {
    const { text, html } = bodies({
      to: "a@example.com",
      subject: "s",
      paragraphs: ['Your draft "<b>Menu</b>" & more'],
      action: { label: "Open", url: "https://example.com/?a=1&b=2" },
    });
    assert.equal(text, 'Your draft "<b>Menu</b>" & more\n\nOpen: https://example.com/?a=1&b=2\n');
    assert.match(html, /<p>Your draft &#34;&#60;b&#62;Menu&#60;\/b&#62;&#34; &#38; more<\/p>/);
    assert.match(html, /href="https:\/\/example.com\/\?a=1&#38;b=2"/);
    assert.doesNotMatch(html, /<b>/);
  });
});

describe("memoize", () => {
  it("remembers the last `size` answers, the oldest forgotten first; null is an answer, undefined is not", () => {
    const asked: string[] = [];
    const f = memoize(
      "unit.memo",
      (key) => (asked.push(key), key === "none" ? undefined : key === "null" ? null : key.length),
      2,
    );
    for (const key of ["a", "bb", "a", "ccc", "a", "none", "none", "null", "null"]) f(key);
    // "a" came back after "ccc" pushed it out (the oldest of a, bb); undefined is computed each time.
    assert.deepEqual(asked, ["a", "bb", "ccc", "a", "none", "none", "null"]);
  });
});
