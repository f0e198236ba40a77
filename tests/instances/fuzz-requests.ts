// The requests tests/instances/fuzz.integration.test.ts sends, built from the OpenAPI document with
// fast-check: every /v1 operation with mostly-valid values and junk mixed in at every level (wrong
// types, missing and extra fields, huge, empty and unicode strings, invalid URLs), wrong methods and
// content types, broken JSON, oversized bodies, other libraries' ids, valid and invalid keys.
import fc from "fast-check";
import type { Caller } from "./fuzz-server";

type Schema = {
  type?: string;
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};
type Operation = {
  method: string;
  path: string;
  parameters: { name: string; in: string; schema?: Schema }[];
  body?: Schema;
};
export type Doc = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Operation["parameters"]; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
};
type Request = { method: string; path: string; headers: Record<string, string>; body?: string; caller: number };

const HUGE = "x".repeat(1024 * 1024 + 10);
const text = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? "undefined"));

/** Strings that have broken services before. */
const nasty = (base: string) =>
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "名前 🎉 ñ",
    "x".repeat(5000),
    "javascript:alert(1)",
    "data:text/html,<b>hi</b>",
    `${base}/q/abcdefgh`,
    "https://user:pw@example.com/",
    `https://example.com/${"a".repeat(2100)}`,
    "https://例え.jp/パス?q=ü",
    "http://[::1]:8080/",
    "%",
    "%E0%A4%A",
    "../../etc/passwd",
    "=cmd|' /C calc'!A0",
    "2026-02-30",
    "-1",
    "1e309",
    "NaN",
    "null",
    "[]",
    "{}",
  );

const junk = (base: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    nasty(base),
    fc.string(),
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.jsonValue(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 3 }),
  );

function resolve(schema: Schema, doc: Doc): Schema {
  return schema.$ref ? resolve(doc.components!.schemas![schema.$ref.split("/").pop()!], doc) : schema;
}

/** Mostly-valid values of a schema, with junk mixed in at every level. */
function valueOf(schema: Schema, doc: Doc, base: string, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, doc);
  const variants = s.oneOf ?? s.anyOf;
  if (variants) return fc.oneof(...variants.map((v) => valueOf(v, doc, base, depth + 1)));
  if (s.enum) return fc.oneof(fc.constantFrom(...s.enum), junk(base));
  switch (s.type) {
    case "object": {
      const props = Object.entries(s.properties ?? {});
      if (depth > 3 || props.length === 0) return fc.oneof(fc.constant({}), junk(base));
      const record = fc.record(Object.fromEntries(props.map(([k, v]) => [k, valueOf(v, doc, base, depth + 1)])), {
        requiredKeys: [],
      });
      // Extra fields sometimes (unknown fields must be refused).
      return fc.oneof(
        { weight: 4, arbitrary: record },
        {
          weight: 1,
          arbitrary: fc
            .tuple(record, fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue())
            .map(([r, k, v]) => ({ ...r, [k]: v })),
        },
        { weight: 1, arbitrary: junk(base) },
      );
    }
    case "array":
      return fc.oneof(
        { weight: 4, arbitrary: fc.array(valueOf(s.items ?? {}, doc, base, depth + 1), { maxLength: 55 }) },
        { weight: 1, arbitrary: junk(base) },
      );
    case "string":
      return fc.oneof(
        fc.constantFrom("https://example.com/fuzz", "Fuzzed name", "#1a2b3c", "M"),
        nasty(base),
        fc.string({ unit: "grapheme", maxLength: 300 }),
      );
    case "integer":
    case "number":
      return fc.oneof(fc.integer({ min: -5, max: 20 }), fc.integer(), fc.double(), junk(base));
    default:
      return junk(base);
  }
}

export function operationsOf(doc: Doc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content["application/json"]?.schema,
    })),
  );
}

export function requestOf(op: Operation, doc: Doc, base: string, callers: Caller[]): fc.Arbitrary<Request> {
  const pathParam = (caller: number) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...callers[caller].ids, ...callers[caller].codes) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          ...callers[(caller + 1) % callers.length].codes,
          ...callers[(caller + 1) % callers.length].ids,
        ),
      },
      { weight: 1, arbitrary: fc.oneof(nasty(base), fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 })) },
    );
  const queries = op.parameters.filter((p) => p.in === "query");
  const query = fc.record(
    Object.fromEntries(
      queries.map((p) => [
        p.name,
        fc.oneof(
          valueOf(p.schema ?? {}, doc, base).map(text),
          fc.constantFrom("0", "101", "1", "50", "2026-01-01", "png", "svg", "4096", "63"),
        ),
      ]),
    ),
    { requiredKeys: [] },
  );
  const body = op.body
    ? fc.oneof(
        {
          weight: 6,
          arbitrary: valueOf(op.body, doc, base).map((v) => ({
            text: JSON.stringify(v) ?? "null",
            type: "application/json",
          })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('{"url":', "{", "[1,2", "\u0000", "", "null", '"text"')
            .map((text) => ({ text, type: "application/json" })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(
              "text/plain",
              "application/x-www-form-urlencoded",
              "multipart/form-data",
              "",
              "application/json-patch+json",
            )
            .map((type) => ({ text: "{}", type })),
        },
        { weight: 1, arbitrary: fc.constant({ text: JSON.stringify({ name: HUGE }), type: "application/json" }) },
      )
    : fc.constant(undefined);
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constant(op.method) },
    { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE") },
  );
  const key = (caller: number) =>
    fc.oneof(
      { weight: 10, arbitrary: fc.constant(callers[caller].key) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          undefined,
          "",
          "qrp_" + "x".repeat(40),
          "qrb_short",
          "Bearer nonsense",
          "ü".repeat(20),
        ),
      },
    );
  return fc.integer({ min: 0, max: callers.length - 1 }).chain((caller) =>
    fc
      .record({
        params: fc.array(pathParam(caller), { minLength: 2, maxLength: 2 }),
        query,
        body,
        method,
        key: key(caller),
      })
      .map(({ params, query, body, method, key }) => {
        let i = 0;
        const path = `/v1${op.path.replace(/\{\w+\}/g, () => encodeURIComponent(text(params[i++])))}`;
        const search = new URLSearchParams(query as Record<string, string>).toString();
        const headers: Record<string, string> = {};
        if (key !== undefined) headers["x-api-key"] = key;
        if (body && body.type) headers["content-type"] = body.type;
        return {
          method,
          path: search ? `${path}?${search}` : path,
          headers,
          body: method === "GET" || method === "DELETE" ? undefined : body?.text,
          caller,
        };
      }),
  );
}
