// Dynamic codes that do more (contract, Part 2): the short link applies expiry, targets, UTM tags
// and passwords, with real user agents and the trusted country header (cf-ipcountry in the test
// run). The rules on the record: rules-record.integration.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { BOTS, UA } from "../agents";
import { http, personalKey } from "../helpers";
import { scansOf } from "../scans";
import { create, nowSeconds, scan, TARGETS } from "./rules";

const post = (code: string, password: string, userAgent = UA.iphone) =>
  http("POST", `/q/${code}`, {
    body: new URLSearchParams({ password }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": userAgent },
  });

describe("the short link applies the rules", () => {
  it("targets by OS, device and country, in order, with real user agents; else the destination", async () => {
    const { key } = await personalKey();
    const rec = await create(key, { targets: TARGETS });
    assert.equal(await scan(rec.code, UA.iphone), TARGETS[0].url);
    assert.equal(await scan(rec.code, UA.iphone, "DE"), TARGETS[0].url, "the first match wins over a later one");
    assert.equal(await scan(rec.code, UA.android), TARGETS[1].url);
    assert.equal(await scan(rec.code, UA.ipad), TARGETS[2].url, "an iPad is iOS but no mobile: the tablet rule");
    assert.equal(await scan(rec.code, UA.edge, "DE"), TARGETS[3].url);
    assert.equal(await scan(rec.code, UA.edge, "FR"), TARGETS[4].url, "both conditions of a rule");
    assert.equal(await scan(rec.code, UA.firefox, "FR"), "https://example.com/landing", "Mac OS in France: no rule");
    assert.equal(await scan(rec.code, UA.edge), "https://example.com/landing");
    // Each scan keeps the destination it was sent to.
    const rows = await scansOf((await db.dynamicCode.findFirstOrThrow({ where: { code: rec.code } })).id, 8);
    assert.deepEqual(
      rows.map((r) => r.destinationUrl),
      [
        TARGETS[0].url,
        TARGETS[0].url,
        TARGETS[1].url,
        TARGETS[2].url,
        TARGETS[3].url,
        TARGETS[4].url,
        "https://example.com/landing",
        "https://example.com/landing",
      ],
    );
  });

  it("UTM tags: added to the chosen URL, existing parameters kept as written, fragment kept", async () => {
    const { key } = await personalKey();
    const utm = { source: "qr", medium: "print", campaign: "spring sale & more" };
    const cases: [string, string][] = [
      [
        "https://example.com/landing",
        "https://example.com/landing?utm_source=qr&utm_medium=print&utm_campaign=spring%20sale%20%26%20more",
      ],
      [
        "https://example.com/p?utm_source=newsletter&a=1",
        "https://example.com/p?utm_source=newsletter&a=1&utm_medium=print&utm_campaign=spring%20sale%20%26%20more",
      ],
      [
        "https://example.com/p?q=caf%C3%A9+cr%C3%A8me&x=%2F#section-2",
        "https://example.com/p?q=caf%C3%A9+cr%C3%A8me&x=%2F&utm_source=qr&utm_medium=print&utm_campaign=spring%20sale%20%26%20more#section-2",
      ],
      [
        "https://example.com/#/app/route?x=1",
        "https://example.com/?utm_source=qr&utm_medium=print&utm_campaign=spring%20sale%20%26%20more#/app/route?x=1",
      ],
      [
        "https://example.com/p?",
        "https://example.com/p?utm_source=qr&utm_medium=print&utm_campaign=spring%20sale%20%26%20more",
      ],
    ];
    for (const [destination, expected] of cases) {
      const rec = await create(key, { utm }, destination);
      const location = await scan(rec.code, UA.android);
      assert.equal(location, expected);
      assert.doesNotThrow(() => new URL(location as string));
    }
    const targeted = await create(key, {
      utm: { source: "qr" },
      targets: [{ url: "https://play.google.com/store/apps/details?id=x&utm_source=play", os: "Android" }],
    });
    assert.equal(
      await scan(targeted.code, UA.android),
      "https://play.google.com/store/apps/details?id=x&utm_source=play",
    );
    assert.equal(await scan(targeted.code, UA.iphone), "https://example.com/landing?utm_source=qr");
  });

  it("an expired code: 410 page, or 302 to expired_url; neither is a scan", async () => {
    const { key } = await personalKey();
    const plain = await create(key, { expires_at: nowSeconds() + 3600 });
    const redirected = await create(key, {
      expires_at: nowSeconds() + 3600,
      expired_url: "https://example.com/over",
      targets: TARGETS,
      utm: { source: "qr" },
    });
    assert.equal(await scan(plain.code, UA.iphone), "https://example.com/landing");
    // Ended now by PATCH (a PATCH may set a past time).
    for (const rec of [plain, redirected])
      assert.equal(
        (await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json: { expires_at: nowSeconds() - 1 } })).status,
        200,
      );
    const gone = await http("GET", `/q/${plain.code}`, { headers: { "user-agent": UA.iphone } });
    assert.equal(gone.status, 410);
    assert.match(gone.text, /This QR code has expired/);
    assert.equal(await scan(redirected.code, UA.iphone), "https://example.com/over");
    await new Promise((r) => setTimeout(r, 600)); // a counted scan would be written by now
    const ids = await db.dynamicCode.findMany({
      where: { code: { in: [plain.code, redirected.code] } },
      select: { id: true },
    });
    assert.equal(
      await db.scanEvent.count({ where: { dynamicCodeId: { in: ids.map((i) => i.id) } } }),
      1,
      "only the scan before expiry",
    );
  });
});

describe("a password-protected code", () => {
  it("form, 401 on a wrong password, 302 and one scan on the right one; bots get the form and are not counted", async () => {
    const { key } = await personalKey();
    const rec = await create(key, {
      password: "open sesame",
      targets: [{ url: "https://example.com/android", os: "Android" }],
      utm: { source: "qr" },
    });
    const form = await http("GET", `/q/${rec.code}`, { headers: { "user-agent": UA.iphone } });
    assert.equal(form.status, 200);
    assert.match(form.text, /<form method="post" action="\/q\/[0-9A-Za-z]{8}">/);
    assert.match(form.text, /<label for="password">Password<\/label>/);
    assert.match(form.text, /<button type="submit">Continue<\/button>/);
    assert.match(form.text, /name="viewport" content="width=device-width/);
    assert.ok(!/<script/i.test(form.text), "works without JavaScript");
    assert.equal((await http("HEAD", `/q/${rec.code}`)).status, 200);
    for (const bot of BOTS)
      assert.equal((await http("GET", `/q/${rec.code}`, { headers: { "user-agent": bot } })).status, 200, bot);

    const wrong = await post(rec.code, "open says me");
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /Wrong password/);
    assert.match(wrong.text, /<button type="submit">Continue<\/button>/);
    const right = await post(rec.code, "open sesame", UA.android);
    assert.equal(right.status, 302);
    assert.equal(
      right.headers.get("location"),
      "https://example.com/android?utm_source=qr",
      "targets and UTM after the password",
    );
    assert.equal((await post(rec.code, "open sesame", BOTS[0])).status, 302);
    const id = (await db.dynamicCode.findFirstOrThrow({ where: { code: rec.code } })).id;
    const rows = await scansOf(id, 1);
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(
      await db.scanEvent.count({ where: { dynamicCodeId: id } }),
      1,
      "only the right password of a person counts",
    );
    assert.equal(rows[0].destinationUrl, "https://example.com/android?utm_source=qr");

    // PATCH null removes the protection at once.
    assert.equal((await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json: { password: null } })).status, 200);
    assert.equal(await scan(rec.code, UA.iphone), "https://example.com/landing?utm_source=qr");
  });

  it("the 11th wrong try within 15 minutes is 429 with when to try again; the right one too then", async () => {
    const { key } = await personalKey();
    const rec = await create(key, { password: "open sesame" });
    for (let i = 1; i <= 10; i++) assert.equal((await post(rec.code, `guess ${i}`)).status, 401, `try ${i}`);
    const refused = await post(rec.code, "guess 11");
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.match(refused.text, /Too many wrong passwords\. Try again in \d+ minutes? \(at \d\d:\d\d UTC\)/);
    assert.equal((await post(rec.code, "open sesame")).status, 429);
    // Another code's tries are its own.
    const other = await create(key, { password: "open sesame" });
    assert.equal((await post(other.code, "open sesame")).status, 302);
  });
});
