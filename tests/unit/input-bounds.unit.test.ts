// Cheap checks on input before anything costly: a body's JSON shape before it is parsed and its
// UTF-8 (server/http/body.ts), names and destinations (server/library/validation.ts), list pages
// and their cursors, invitation addresses by RFC 5321's lengths, and DATABASE_URL.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { backendOf, pgConfigFromUrl, sqliteFileOf } from "../../server/platform/database-url";
import { invitationEmail } from "../../server/teams/invitations";
import { decodeCursor, encodeCursor, listQuery, nameField, urlProblem } from "../../server/library/validation";
import { DomainError } from "../../server/platform/errors";
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_VALUES, utf8Text } from "../../server/http/body";

const firstMessage = (
  schema: { safeParse(v: unknown): { error?: { issues: { message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues[0]?.message ?? null;

describe("a body's JSON shape, before it is parsed", () => {
  it("nesting: exactly MAX_JSON_DEPTH levels pass, one more is refused", () => {
    assert.equal(jsonShapeProblem("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH)), null);
    assert.equal(
      jsonShapeProblem("[".repeat(MAX_JSON_DEPTH + 1)),
      "The body must not nest arrays and objects more than 32 levels deep",
    );
    assert.equal(jsonShapeProblem(`{"a":${"[{}],".repeat(1000)}0}`), null, "siblings are not depth");
  });

  it("values: MAX_JSON_VALUES pass, one more is refused", () => {
    assert.equal(jsonShapeProblem(`[${Array(MAX_JSON_VALUES).fill(0).join(",")}]`), null);
    assert.equal(
      jsonShapeProblem(
        `[${Array(MAX_JSON_VALUES + 1)
          .fill(0)
          .join(",")}]`,
      ),
      "The body must hold at most 20000 values",
    );
  });

  it("brackets and commas inside strings are text, escaped quotes included", () => {
    assert.equal(jsonShapeProblem(JSON.stringify({ s: "[".repeat(100) + ",".repeat(MAX_JSON_VALUES + 5) })), null);
    assert.equal(jsonShapeProblem(JSON.stringify({ s: 'say \\"[[[[' + "[".repeat(40) })), null);
    assert.equal(
      jsonShapeProblem(`{"s":"a\\\\"${"[".repeat(MAX_JSON_DEPTH + 1)}`),
      "The body must not nest arrays and objects more than 32 levels deep",
      "an escaped backslash ends the string",
    );
  });

  it("invalid UTF-8 is refused, not replaced", () => {
    assert.equal(utf8Text(Buffer.from("zażółć")), "zażółć");
    assert.throws(
      () => utf8Text(Buffer.from([0x61, 0xff, 0x62])),
      (e: unknown) => e instanceof DomainError && e.message === "The body is not valid UTF-8",
    );
  });
});

describe("names and destinations", () => {
  it("a name is 1 to 200 characters after trimming, an emoji one, no control characters", () => {
    assert.equal(firstMessage(nameField, "😀".repeat(200)), null);
    assert.equal(firstMessage(nameField, "a".repeat(201)), "name must be 1 to 200 characters (after trimming)");
    assert.equal(firstMessage(nameField, "   "), "name must be 1 to 200 characters (after trimming)");
    assert.equal(firstMessage(nameField, "x".repeat(1_000_000)), "name must be 1 to 200 characters (after trimming)");
    assert.equal(
      firstMessage(nameField, "a\u0000b"),
      "name must not contain control characters (line breaks, tabs, NUL)",
    );
    assert.equal(
      firstMessage(nameField, "a\u0085b"),
      "name must not contain control characters (line breaks, tabs, NUL)",
    );
  });

  it("a destination: absolute http(s), no credentials, no spaces around it, at most 2048 characters as sent and once encoded", () => {
    assert.equal(urlProblem("https://example.com/menu"), null);
    assert.equal(urlProblem("mailto:a@example.com"), "must be an absolute http or https URL");
    assert.equal(urlProblem(" https://example.com/"), "must be an absolute http or https URL");
    assert.equal(urlProblem("https://user:pw@example.com/"), "must not contain credentials");
    assert.equal(urlProblem(`https://example.com/${"a".repeat(2029)}`), "must be at most 2048 characters");
    assert.match(
      urlProblem(`https://example.com/${"ä".repeat(1000)}`)!,
      /^must be at most 2048 characters once encoded/,
    );
  });
});

describe("list pages", () => {
  it("limit: 1 to 100, a query string's decimal digits read as a number, nothing else", () => {
    assert.equal(listQuery.parse({ limit: "20" }).limit, 20);
    for (const bad of ["0", "101", "0x10", "1e1", " 5", 2.5])
      assert.equal(firstMessage(listQuery, { limit: bad }), "limit must be an integer from 1 to 100", String(bad));
  });

  it("a cursor is the last id, opaque; one that is not an id of the kind is refused", () => {
    const id = "dyn_0abcdefghijklmnopqrst";
    assert.equal(decodeCursor(encodeCursor(id), "dyn"), id);
    assert.equal(decodeCursor(undefined, "dyn"), undefined);
    for (const bad of [encodeCursor("qr_0abcdefghijklmnopqrst"), encodeCursor("dyn_x' OR 1=1"), "%%%"]) {
      assert.throws(
        () => decodeCursor(bad, "dyn"),
        (e: unknown) =>
          e instanceof DomainError && e.message === "cursor is not valid: pass the next_cursor of a previous page",
      );
    }
  });
});

describe("invitation addresses", () => {
  it("lower case, trimmed; RFC 5321's lengths before the form", () => {
    assert.equal(invitationEmail.parse("  Ann@Example.COM "), "ann@example.com");
    assert.equal(firstMessage(invitationEmail, `${"a".repeat(64)}@example.com`), null);
    assert.equal(
      firstMessage(invitationEmail, `${"a".repeat(65)}@example.com`),
      "The part of an email address before the @ has at most 64 characters (RFC 5321)",
    );
    assert.equal(
      firstMessage(invitationEmail, `a@${"b".repeat(249)}.com`),
      "An email address has at most 254 characters (RFC 5321); this one has 255",
    );
    assert.equal(firstMessage(invitationEmail, "not an address"), "Enter a valid email address");
  });
});

describe("DATABASE_URL", () => {
  it("the scheme picks the backend; anything else is refused", () => {
    assert.deepEqual(["file:./data/qr.db", "postgres://h/db", "postgresql://h/db"].map(backendOf), [
      "sqlite",
      "postgres",
      "postgres",
    ]);
    assert.throws(() => backendOf("mysql://h/db"), /must start with file:/);
    assert.equal(sqliteFileOf("file:///var/lib/qr.db"), "/var/lib/qr.db");
    assert.equal(sqliteFileOf("file:/tmp/qr.db"), "/tmp/qr.db");
  });

  it("PostgreSQL's parts passed apart, decoded, with TLS when sslmode=require", () => {
    assert.deepEqual(pgConfigFromUrl("postgresql://app%40x:p%2Fw@db.example:6543/qr%20data?sslmode=require"), {
      host: "db.example",
      port: 6543,
      user: "app@x",
      password: "p/w",
      database: "qr data",
      ssl: { rejectUnauthorized: false },
    });
    assert.deepEqual(pgConfigFromUrl("postgresql://db.example/"), {
      host: "db.example",
      port: 5432,
      user: undefined,
      password: undefined,
      database: undefined,
      ssl: undefined,
    });
  });
});
