// A dynamic code's rules (server/rules) and the short link's resolution of a stored row
// (server/scan/resolution.ts, resolutionOf): which target a scan goes to, the UTM tags, the stored
// columns as records and the cache show them, the password form's answers, and the fields'
// messages.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import {
  answerPasswordForm,
  chooseUrl,
  resolvedRulesOf,
  rulesRecordOf,
  targetsField,
  utmField,
  withUtm,
  type RuleColumns,
  type Target,
} from "../../server/rules";
import { resolutionOf } from "../../server/scan/resolution";
import { UA } from "./fixtures/user-agents";

const { iphone: IPHONE, ipad: IPAD, android: ANDROID, windows: WINDOWS } = UA;

// Addresses the bundled DB-IP country database places (the unit tier trusts no country header).
const US = "8.8.8.8";
const DE = "193.99.144.80";
const PRIVATE = "10.0.0.1";

const scanner = (userAgent: string, address: string) => ({ userAgent, address, countryHeader: null });
const DEST = "https://example.com/default";

describe("the target a scan goes to", () => {
  const targets: Target[] = [
    { url: "https://example.com/ios-de", os: "iOS", country: "DE" },
    { url: "https://example.com/ios-phone", os: "iOS", device: "mobile" },
    { url: "https://example.com/tablet", device: "tablet" },
    { url: "https://example.com/us", country: "US" },
  ];
  const chosen = (ua: string, address: string) =>
    chooseUrl(targets, DEST, scanner(ua, address)).replace("https://example.com/", "");

  it("the first target whose conditions all match, in order", () => {
    assert.equal(chosen(IPHONE, DE), "ios-de");
    assert.equal(chosen(IPHONE, US), "ios-phone", "iOS but not DE: the next rule");
    assert.equal(chosen(IPAD, US), "tablet", "iOS but not a phone");
    assert.equal(chosen(ANDROID, US), "us");
    assert.equal(chosen(WINDOWS, "::ffff:8.8.8.8"), "us", "an IPv4-mapped address is its IPv4 address");
  });

  it("no target matches, or none is set: the destination", () => {
    assert.equal(chosen(ANDROID, DE), "default");
    assert.equal(chosen(WINDOWS, PRIVATE), "default", "a private address has no country (ZZ)");
    assert.equal(chosen("", "not an address"), "default");
    assert.equal(chooseUrl(undefined, DEST, scanner(IPHONE, DE)), DEST);
    assert.equal(chooseUrl([], DEST, scanner(IPHONE, DE)), DEST);
  });
});

describe("UTM tags", () => {
  const utm = { source: "qr", medium: "print", campaign: "spring sale" };

  it("added at the end of the query, encoded, before the fragment; the rest kept as written", () => {
    assert.equal(
      withUtm("https://example.com/menu", utm),
      "https://example.com/menu?utm_source=qr&utm_medium=print&utm_campaign=spring%20sale",
    );
    assert.equal(
      withUtm("https://example.com/?a=%2F&b#top", { source: "qr" }),
      "https://example.com/?a=%2F&b&utm_source=qr#top",
    );
    assert.equal(withUtm("https://example.com/?", { source: "qr" }), "https://example.com/?utm_source=qr");
    assert.equal(withUtm("https://example.com/?a=1&", { source: "qr" }), "https://example.com/?a=1&utm_source=qr");
  });

  it("a parameter the URL already has wins; nothing to add or no tags leaves the URL as it is", () => {
    assert.equal(
      withUtm("https://example.com/?utm_source=flyer", utm),
      "https://example.com/?utm_source=flyer&utm_medium=print&utm_campaign=spring%20sale",
    );
    assert.equal(
      withUtm("https://example.com/?utm_source=flyer#x", { source: "qr" }),
      "https://example.com/?utm_source=flyer#x",
    );
    assert.equal(withUtm("https://example.com/a?b", null), "https://example.com/a?b");
  });
});

const columns = (over: Partial<RuleColumns> = {}): RuleColumns => ({
  expiresAt: null,
  expiredUrl: null,
  targets: null,
  utm: null,
  passwordHash: null,
  ...over,
});

describe("stored rules", () => {
  const stored = columns({
    expiresAt: "2026-12-31T23:59:59.500Z",
    expiredUrl: "https://example.com/ended",
    targets: JSON.stringify([{ url: "https://bücher.example/ios", os: "iOS" }]),
    utm: JSON.stringify({ source: "qr" }),
    passwordHash: "scrypt$…",
  });

  it("as records show them: seconds, serialised URLs, the password only as a flag", () => {
    assert.deepEqual(rulesRecordOf(stored), {
      expires_at: Math.floor(Date.parse("2026-12-31T23:59:59.500Z") / 1000),
      expired_url: "https://example.com/ended",
      targets: [{ url: "https://xn--bcher-kva.example/ios", os: "iOS" }],
      utm: { source: "qr" },
      password_protected: true,
    });
    assert.deepEqual(rulesRecordOf(columns()), {
      expires_at: null,
      expired_url: null,
      targets: null,
      utm: null,
      password_protected: false,
    });
  });

  it("as the cache keeps them: milliseconds, UTM tags already on every target and the destination, absent when unset", () => {
    const { destination, rules } = resolvedRulesOf(stored);
    assert.deepEqual(rules, {
      expiresAt: Date.parse("2026-12-31T23:59:59.500Z"),
      expiredUrl: "https://example.com/ended",
      targets: [{ url: "https://xn--bcher-kva.example/ios?utm_source=qr", os: "iOS" }],
      passwordHash: "scrypt$…",
    });
    assert.equal(destination("https://example.com/a b"), "https://example.com/a%20b?utm_source=qr");
    assert.deepEqual(resolvedRulesOf(columns({ targets: "[]" })).rules, {}, "an empty list is no targets");
  });

  it("a row's resolution: unknown, deleted before any status, draft and paused by status, else active with its rules", () => {
    const row = {
      id: "dyn_1",
      status: "active",
      type: "url",
      destinationUrl: "https://example.com/x",
      content: null,
      deletedAt: null,
      ...columns({ utm: JSON.stringify({ medium: "print" }) }),
    };
    assert.deepEqual(resolutionOf(null), { state: "unknown" });
    assert.deepEqual(resolutionOf({ ...row, deletedAt: new Date(0) }), { state: "deleted", id: "dyn_1" });
    assert.deepEqual(resolutionOf({ ...row, deletedAt: new Date(0), status: "paused" }), {
      state: "deleted",
      id: "dyn_1",
    });
    assert.deepEqual(resolutionOf({ ...row, status: "draft" }), { state: "draft", id: "dyn_1" });
    assert.deepEqual(resolutionOf({ ...row, status: "paused" }), { state: "paused", id: "dyn_1" });
    assert.deepEqual(resolutionOf(row), {
      state: "active",
      id: "dyn_1",
      destinationUrl: "https://example.com/x?utm_medium=print",
    });
    // Plain data: the live copy keeps it as JSON.
    const active = resolutionOf({ ...row, ...stored });
    assert.deepEqual(JSON.parse(JSON.stringify(active)), active);
    // A hosted page's content rides along, its destination empty (UTM tags only reach targets).
    const page = { title: "Menu", links: [{ label: "Soups", url: "https://example.com/soups" }] };
    const hosted = resolutionOf({ ...row, type: "page", destinationUrl: "", content: JSON.stringify(page) });
    assert.deepEqual(hosted, {
      state: "active",
      id: "dyn_1",
      destinationUrl: "",
      hosted: { type: "page", content: page },
    });
    assert.deepEqual(JSON.parse(JSON.stringify(hosted)), hosted);
  });
});

describe("the password form's answers", () => {
  it("asked: 200 with the form; wrong: 401 with the alert; HEAD: no body", () => {
    const asked = answerPasswordForm("AbCd1234", "GET", null);
    assert.equal(asked.status, 200);
    assert.match(asked.body!, /<form method="post" action="\/q\/AbCd1234">/);
    assert.doesNotMatch(asked.body!, /Wrong password/);
    const wrong = answerPasswordForm("AbCd1234", "POST", { ok: false });
    assert.equal(wrong.status, 401);
    assert.match(wrong.body!, /role="alert">Wrong password/);
    assert.equal(answerPasswordForm("AbCd1234", "HEAD", { ok: false }).body, null);
  });

  it("too many wrong tries: 429 with Retry-After and the minutes, rounded up", () => {
    const refused = answerPasswordForm("AbCd1234", "POST", { ok: false, retryAfter: 61 });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers["Retry-After"], "61");
    assert.match(refused.body!, /Try again in 2 minutes \(at \d\d:\d\d UTC\)/);
    assert.match(answerPasswordForm("AbCd1234", "POST", { ok: false, retryAfter: 60 }).body!, /in 1 minute \(/);
  });
});

describe("the rules' fields", () => {
  const problem = (
    schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
    value: unknown,
  ) => schema.safeParse(value).error?.issues[0]?.message ?? null;

  it("a target names its place in every message", () => {
    // As a body holds it: the messages start at its key.
    const body = z.object({ targets: targetsField });
    const targets = { safeParse: (value: unknown) => body.safeParse({ targets: value }) };
    assert.equal(problem(targets, [{ url: "https://example.com/", os: "iOS" }]), null);
    assert.equal(
      problem(targets, [{ url: "https://example.com/", os: "iOS" }, { url: "https://example.com/" }]),
      "targets[1] needs at least one of os, device, country",
    );
    assert.equal(
      problem(targets, [{ url: "https://example.com/", os: "BeOS" }]),
      "targets[0].os must be one of iOS, Android, Windows, Mac OS, Linux, Chromium OS, HarmonyOS, Ubuntu",
    );
    assert.equal(
      problem(targets, [{ url: "https://example.com/", country: "de" }]),
      "targets[0].country must be an ISO 3166-1 alpha-2 country code such as DE",
    );
    assert.equal(
      problem(targets, [{ url: "https://example.com/", country: "EU" }]),
      "targets[0].country must be an ISO 3166-1 alpha-2 country code such as DE",
      "a region, not a country",
    );
    assert.equal(
      problem(targets, [{ url: "ftp://example.com/", device: "mobile" }]),
      "targets[0].url must be an absolute http or https URL",
    );
    assert.equal(
      problem(targets, [{ url: "https://example.com/", device: "mobile", colour: "red" }]),
      "targets[0] has an unknown field: colour",
    );
  });

  it("at most 20 targets, refused as too many without checking each of a huge list", () => {
    const many = Array.from({ length: 100_000 }, () => ({ url: "nope" }));
    assert.equal(problem(targetsField, many), "targets holds at most 20 rules");
  });

  it("UTM values are 1 to 100 characters of the five keys", () => {
    assert.equal(problem(utmField, { source: "qr", campaign: "x".repeat(100) }), null);
    assert.equal(problem(utmField, { source: "" }), "utm.source must be a string of 1 to 100 characters");
    assert.equal(problem(utmField, { id: "1" }), "utm has an unknown field: id");
  });
});
