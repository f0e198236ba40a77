// Dynamic codes that do more (contract, Part 2): expiry, targets, UTM tags and passwords on the
// record: create echoes every rule (the password never, stored only as a slow hash), list and
// export show them, PATCH sets and clears each, and bad rules are the contract's 400 on every /v1
// path. What the short link does with them: rules-short-link.integration.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { db } from "../../server/platform/db";
import { UA } from "../agents";
import { BASE_URL, http, personalKey } from "../helpers";
import { create, nowSeconds, scan, TARGETS, type Dyn } from "./rules";

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
