// Dynamic codes that do more (contract, Part 2): expiry, targets, UTM tags and passwords,
// through every /v1 path and on the short link, with real user agents and the trusted
// country header (cf-ipcountry in the test run).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { db } from "../../server/platform/db";
import { BOTS, UA } from "../agents";
import { BASE_URL, http, personalKey } from "../helpers";
import { scansOf } from "../scans";

type Dyn = {
  code: string;
  destination_url: string;
  expires_at: number | null;
  expired_url: string | null;
  targets: object[] | null;
  utm: object | null;
  password_protected: boolean;
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function create(key: string, rules: object, destination = "https://example.com/landing"): Promise<Dyn> {
  const r = await http("POST", "/v1/dynqrcodes", {
    key,
    json: { destination_url: destination, name: "Rules", ...rules },
  });
  assert.equal(r.status, 201, r.text);
  return (r.body as { created: Dyn[] }).created[0];
}

/** Where the short link sends this scanner (the status when it is no redirect). */
async function scan(code: string, userAgent: string, country?: string): Promise<string | number> {
  const r = await http("GET", `/q/${code}`, {
    headers: { "user-agent": userAgent, ...(country ? { "cf-ipcountry": country } : {}) },
  });
  return r.status === 302 ? r.headers.get("location")! : r.status;
}

const post = (code: string, password: string, userAgent = UA.iphone) =>
  http("POST", `/q/${code}`, {
    body: new URLSearchParams({ password }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": userAgent },
  });

const TARGETS = [
  { url: "https://apps.apple.com/app/id1", os: "iOS", device: "mobile" },
  { url: "https://play.google.com/store/apps/details?id=x", os: "Android" },
  { url: "https://example.com/tablet", device: "tablet" },
  { url: "https://example.de/", country: "DE" },
  { url: "https://example.com/windows-fr", os: "Windows", country: "FR" },
];

describe("rules on the record", () => {
  it("create echoes every rule; the password never; list and export show them (JSON columns)", async () => {
    const { key } = await personalKey();
    const expires = nowSeconds() + 86_400;
    const rec = await create(key, {
      expires_at: expires,
      expired_url: "https://example.com/over",
      targets: TARGETS,
      utm: { source: "qr", campaign: "spring" },
      password: "staff-only",
    });
    assert.equal(rec.expires_at, expires);
    assert.equal(rec.expired_url, "https://example.com/over");
    assert.deepEqual(rec.targets, TARGETS);
    assert.deepEqual(rec.utm, { source: "qr", campaign: "spring" });
    assert.equal(rec.password_protected, true);
    assert.ok(!("password" in rec));
    const list = await http("GET", "/v1/dynqrcodes", { key });
    assert.deepEqual((list.body as { dynqrcodes: Dyn[] }).dynqrcodes[0], rec);
    const exported = await http("GET", "/v1/dynqrcodes/export", { key });
    for (const text of [JSON.stringify(rec), list.text, exported.text])
      assert.ok(!text.includes("staff-only") && !text.includes("scrypt"));
    const row = (parse(exported.text, { columns: true }) as Record<string, string>[])[0];
    assert.equal(row.expires_at, new Date(expires * 1000).toISOString().replace(".000Z", "Z"));
    assert.equal(row.expired_url, "https://example.com/over");
    assert.deepEqual(JSON.parse(row.targets), TARGETS);
    assert.deepEqual(JSON.parse(row.utm), { source: "qr", campaign: "spring" });
    assert.equal(row.password_protected, "true");
    // Stored only as a slow hash.
    const stored = await db.dynamicCode.findFirstOrThrow({ where: { code: rec.code } });
    assert.match(stored.passwordHash!, /^scrypt\$/);
  });

  it("PATCH sets each rule, and null clears each", async () => {
    const { key } = await personalKey();
    const rec = await create(key, {});
    assert.deepEqual(
      [rec.expires_at, rec.expired_url, rec.targets, rec.utm, rec.password_protected],
      [null, null, null, null, false],
    );
    const set = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, {
      key,
      json: {
        expires_at: nowSeconds() + 60,
        expired_url: "https://example.com/over",
        targets: [TARGETS[1]],
        utm: { medium: "print" },
        password: "open sesame",
      },
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(
      [(set.body as Dyn).targets, (set.body as Dyn).utm, (set.body as Dyn).password_protected],
      [[TARGETS[1]], { medium: "print" }, true],
    );
    assert.equal((await http("GET", `/q/${rec.code}`)).status, 200); // the form
    for (const field of ["expires_at", "expired_url", "targets", "utm", "password"]) {
      const r = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json: { [field]: null } });
      assert.equal(r.status, 200, r.text);
      const shown = field === "password" ? "password_protected" : field;
      assert.equal((r.body as Record<string, unknown>)[shown], field === "password" ? false : null, field);
    }
    // Nothing left: the plain destination, at once.
    assert.equal(await scan(rec.code, UA.android), "https://example.com/landing");
  });

  it("a batch with an invalid rule at index 3 creates nothing and names index 3", async () => {
    const { key } = await personalKey();
    const ok = (i: number) => ({
      destination_url: `https://example.com/${i}`,
      name: `B${i}`,
      targets: [{ url: "https://example.com/ios", os: "iOS" }],
    });
    const items = [
      ok(0),
      ok(1),
      ok(2),
      {
        ...ok(3),
        targets: [
          { url: "https://example.com/a", os: "iOS" },
          { url: "https://example.com/b", os: "Symbian" },
        ],
      },
    ];
    const r = await http("POST", "/v1/dynqrcodes/batch", { key, json: { dynqrcodes: items } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, {
      errors: [
        {
          index: 3,
          error: "targets[1].os must be one of iOS, Android, Windows, Mac OS, Linux, Chromium OS, HarmonyOS, Ubuntu",
        },
      ],
    });
    assert.deepEqual((await http("GET", "/v1/dynqrcodes", { key })).body, { dynqrcodes: [], next_cursor: null });
  });

  it("bad rules: the contract's 400, nothing created or changed", async () => {
    const { key } = await personalKey();
    const url = "https://example.com/x";
    const cases: [object, string][] = [
      [{ targets: Array.from({ length: 21 }, () => ({ url, os: "iOS" })) }, "targets holds at most 20 rules"],
      [{ targets: [{ os: "iOS" }] }, "targets[0].url is required"],
      [{ targets: [{ url }] }, "targets[0] needs at least one of os, device, country"],
      [
        { targets: [{ url: "javascript:alert(1)", os: "iOS" }] },
        "targets[0].url must be an absolute http or https URL",
      ],
      [
        { targets: [{ url: `${BASE_URL}/q/abcdefgh`, os: "iOS" }] },
        "targets[0].url must not point to this service's own /q/ short links",
      ],
      [{ targets: [{ url, device: "phone" }] }, "targets[0].device must be one of mobile, tablet, desktop, other"],
      [
        { targets: [{ url, country: "de" }] },
        "targets[0].country must be an ISO 3166-1 alpha-2 country code such as DE",
      ],
      [
        { targets: [{ url, country: "ZZ" }] },
        "targets[0].country must be an ISO 3166-1 alpha-2 country code such as DE",
      ],
      [{ targets: [{ url, os: "iOS", weight: 2 }] }, "targets[0] has an unknown field: weight"],
      [{ targets: "iOS" }, "targets must be an array of rules, or null"],
      [{ expires_at: nowSeconds() - 10 }, "expires_at must be in the future"],
      [{ expires_at: "tomorrow" }, "expires_at must be a time in seconds since the epoch (an integer), or null"],
      [{ expires_at: 1.5e9 + 0.5 }, "expires_at must be a time in seconds since the epoch (an integer), or null"],
      [{ expired_url: "ftp://example.com/" }, "expired_url must be an absolute http or https URL"],
      [{ utm: { source: "x".repeat(101) } }, "utm.source must be a string of 1 to 100 characters"],
      [{ utm: { source: "" } }, "utm.source must be a string of 1 to 100 characters"],
      [{ utm: { id: "7" } }, "utm has an unknown field: id"],
      [{ utm: "qr" }, "utm must be an object, or null"],
      [{ password: "abc" }, "password must be 4 to 128 characters"],
      [{ password: "x".repeat(129) }, "password must be 4 to 128 characters"],
      [{ password: 1234 }, "password must be a string of 4 to 128 characters, or null"],
    ];
    for (const [rules, error] of cases) {
      const r = await http("POST", "/v1/dynqrcodes", { key, json: { destination_url: url, name: "Bad", ...rules } });
      assert.equal(r.status, 400, JSON.stringify(rules));
      assert.deepEqual(r.body, { error }, JSON.stringify(rules));
    }
    assert.deepEqual((await http("GET", "/v1/dynqrcodes", { key })).body, { dynqrcodes: [], next_cursor: null });
    const rec = await create(key, { utm: { source: "qr" } });
    // A PATCH may set a past expiry (it ends the code now); every other rule is the same.
    for (const [rules, error] of cases.filter(([, error]) => error !== "expires_at must be in the future")) {
      const r = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json: rules });
      assert.deepEqual([r.status, r.body], [400, { error }], JSON.stringify(rules));
    }
    const after = (await http("GET", "/v1/dynqrcodes", { key })).body as { dynqrcodes: Dyn[] };
    assert.deepEqual(after.dynqrcodes[0], rec);
  });
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
