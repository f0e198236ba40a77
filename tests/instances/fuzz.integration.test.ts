// Property-based requests over every /v1 route, built from the OpenAPI document (fast-check):
// wrong types, missing and extra fields, huge, empty and unicode strings, invalid URLs,
// out-of-range paging and dates, wrong methods and content types, broken JSON, oversized
// bodies, valid and invalid keys. Properties: never a 5xx; every error body is exactly
// {"error": …} or {"errors": [{index, error}…]}; a refused request changes nothing.
// Bounded in `npm test` (FUZZ_RUNS, default 300, fixed FUZZ_SEED); `npm run test:fuzz` runs more.
// Its own server and limiter keys, so that its invalid keys do not spend the other suites'
// per-address allowance.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { startServer, type RunningServer } from "../../scripts/harness";
import { db } from "../../server/platform/db";
import { createDynamicCodes } from "../../server/library/dynamicCodes";
import { MAX_BYTES } from "../../server/images/qrImage";
import { createStaticCodes } from "../../server/library/staticCodes";
import { timeOrderedId } from "../../server/platform/ids";
import { contractErrorShape, makeTeam, personalKey } from "../helpers";
import { checkAgainstDocument } from "../document-check";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const ACCOUNTS = 12;

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
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Operation["parameters"]; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
};
type Caller = { key: string | undefined; ids: string[]; codes: string[]; userId?: string };
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

function operationsOf(doc: Doc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content["application/json"]?.schema,
    })),
  );
}

function requestOf(op: Operation, doc: Doc, base: string, callers: Caller[]): fc.Arbitrary<Request> {
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

/** Every record of the fuzzed libraries, as stored. */
async function snapshot(userIds: string[], teamId: string) {
  const where = { OR: [{ userId: { in: userIds }, teamId: null }, { teamId }] };
  const [statics, dynamics] = await Promise.all([
    db.staticCode.findMany({ where, orderBy: { id: "asc" } }),
    db.dynamicCode.findMany({ where, orderBy: { id: "asc" } }),
  ]);
  return JSON.stringify([statics, dynamics]);
}

describe("fuzzing /v1", () => {
  let server: RunningServer;
  const callers: Caller[] = [];
  const userIds: string[] = [];
  let teamId = "";
  before(async () => {
    server = await startServer({ REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX ?? "qr:"}fuzz:` });
    for (let i = 0; i < ACCOUNTS; i++) {
      const { user, key } = await personalKey();
      const actor = { userId: user.id, library: { kind: "personal" as const, userId: user.id } };
      const statics = await createStaticCodes(actor, [{ url: "https://example.com/s", name: "S" }]);
      const dynamics = await createDynamicCodes(actor, [{ destination_url: "https://example.com/d", name: "D" }]);
      callers.push({ key, ids: statics.map((s) => s.qr_id), codes: dynamics.map((d) => d.code), userId: user.id });
      userIds.push(user.id);
    }
    const team = await makeTeam();
    const actor = {
      userId: team.admin.id,
      library: { kind: "team" as const, teamId: team.id },
      role: "admin" as const,
    };
    callers.push({
      key: team.adminKey,
      ids: (await createStaticCodes(actor, [{ url: "https://example.com/t", name: "T" }])).map((s) => s.qr_id),
      codes: (await createDynamicCodes(actor, [{ destination_url: "https://example.com/t", name: "T" }])).map(
        (d) => d.code,
      ),
    });
    teamId = team.id;
  });
  after(() => server.stop());

  it(`${RUNS} generated requests: no 5xx, contract-shaped errors, refusals change nothing`, async () => {
    const doc = (await (await fetch(`${server.base}/v1/openapi.json`)).json()) as Doc;
    const operations = operationsOf(doc);
    assert.ok(operations.length >= 16, `operations: ${operations.length}`);
    const statuses = new Map<number, number>();
    const lastSent = new Map<string, number>();
    let sent = 0;
    const arbitrary = fc.oneof(...operations.map((op) => requestOf(op, doc, server.base, callers)));
    await fc.assert(
      fc.asyncProperty(arbitrary, async (request) => {
        // Keep each key within its bucket (5 a second), so that most requests reach the routes.
        const keyName = request.headers["x-api-key"] ?? "";
        const wait = (lastSent.get(keyName) ?? 0) + 210 - Date.now();
        if (wait > 0 && keyName.length > 30) await new Promise((r) => setTimeout(r, wait));
        lastSent.set(keyName, Date.now());
        const before = await snapshot(userIds, teamId);
        const res = await fetch(server.base + request.path, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          redirect: "manual",
        });
        const text = await res.text();
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const label = `${request.method} ${request.path.slice(0, 200)} → ${res.status} ${text.slice(0, 200)}`;
        assert.ok(res.status < 500, label);
        checkAgainstDocument(request.method, request.path, res.status, res.headers.get("content-type"), text);
        if (res.status >= 400) {
          assert.match(res.headers.get("content-type") ?? "", /^application\/json/, label);
          assert.ok(contractErrorShape(JSON.parse(text)) !== null, label);
          assert.equal(await snapshot(userIds, teamId), before, `${label}: a refused request changed the library`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    const histogram = [...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(" ");
    console.log(`# fuzz: ${sent} requests over ${operations.length} operations, seed ${SEED}: ${histogram}`);
    assert.equal(sent, RUNS);
    // The run must reach the routes, not only the gate.
    assert.ok(
      [...statuses.keys()].some((s) => s >= 200 && s < 300),
      histogram,
    );
    assert.ok((statuses.get(400) ?? 0) > RUNS / 10, histogram);
  });

  it(`image routes of records with long URLs at every error-correction level: never a 5xx`, async () => {
    const levels = ["L", "M", "Q", "H"] as const;
    // Around each level's capacity, in ASCII and in 2-byte and 3-byte characters.
    const record = fc.record({
      level: fc.constantFrom(...levels),
      offset: fc.integer({ min: -40, max: 40 }),
      unit: fc.constantFrom("a", "é", "名"),
      format: fc.constantFrom("svg", "svg", "png"),
      size: fc.constantFrom("64", "256", "512", "1024", "63", "2049"),
    });
    const runs = Math.max(20, Math.round(RUNS / 10));
    const statuses = new Map<string, number>();
    const paced = async (caller: Caller) => {
      const wait = (lastUse.get(caller.key!) ?? 0) + 210 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      lastUse.set(caller.key!, Date.now());
    };
    const lastUse = new Map<string, number>();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(record, async ({ level, offset, unit, format, size }) => {
        const caller = callers[run++ % ACCOUNTS];
        const prefix = "https://example.com/";
        const bytes = MAX_BYTES[level] + offset - prefix.length;
        const url = prefix + unit.repeat(Math.max(1, Math.floor(bytes / Buffer.byteLength(unit))));
        await paced(caller);
        const created = await fetch(`${server.base}/v1/qrcodes`, {
          method: "POST",
          headers: { "x-api-key": caller.key!, "content-type": "application/json" },
          body: JSON.stringify({ url, name: "long", style: { error_correction: level } }),
        });
        const createdText = await created.text();
        assert.ok(
          [201, 400].includes(created.status),
          `create ${level} ${url.length} chars → ${created.status} ${createdText.slice(0, 200)}`,
        );
        let id: string;
        if (created.status === 201) id = (JSON.parse(createdText) as { created: { qr_id: string }[] }).created[0].qr_id;
        else {
          // A record stored before the capacity rule (or by a SQL console): the image route must still answer in the contract's words.
          id = timeOrderedId("qr");
          await db.staticCode.create({
            data: {
              id,
              userId: caller.userId!,
              createdById: caller.userId!,
              url,
              name: "legacy",
              style: JSON.stringify({ error_correction: level }),
            },
          });
        }
        await paced(caller);
        const image = await fetch(`${server.base}/v1/qrcodes/${id}/image?format=${format}&size=${size}`, {
          headers: { "x-api-key": caller.key! },
        });
        const body = Buffer.from(await image.arrayBuffer());
        const label = `${level} ${Buffer.byteLength(url)} bytes ${format} ${size} (${created.status === 201 ? "accepted" : "stored directly"}) → ${image.status} ${body.toString().slice(0, 200)}`;
        statuses.set(`${created.status}/${image.status}`, (statuses.get(`${created.status}/${image.status}`) ?? 0) + 1);
        assert.ok(image.status < 500, label);
        checkAgainstDocument(
          "GET",
          `/v1/qrcodes/${id}/image?format=${format}&size=${size}`,
          image.status,
          image.headers.get("content-type"),
          image.status === 200 ? "(image bytes)" : body.toString(),
        );
        // What the API accepted always draws at a valid size; a refusal is the contract's error.
        if (created.status === 201 && size !== "63" && size !== "2049") assert.equal(image.status, 200, label);
        if (image.status !== 200) assert.ok(contractErrorShape(JSON.parse(body.toString())) !== null, label);
      }),
      { seed: SEED, numRuns: runs, endOnFailure: true },
    );
    console.log(
      `# fuzz images: ${runs} records, create/image statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(" ")}`,
    );
    // Both sides of the capacity were reached.
    assert.ok(
      [...statuses.keys()].some((s) => s.startsWith("201/200")),
      [...statuses.keys()].join(" "),
    );
    assert.ok(
      [...statuses.keys()].some((s) => s.startsWith("400/")),
      [...statuses.keys()].join(" "),
    );
  });
});
