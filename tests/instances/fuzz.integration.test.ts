// Property-based requests over every /v1 route, built from the OpenAPI document (fast-check,
// tests/instances/fuzz-requests.ts): wrong types, missing and extra fields, huge, empty and unicode
// strings, invalid URLs, out-of-range paging and dates, wrong methods and content types, broken
// JSON, oversized bodies, valid and invalid keys. Properties: never a 5xx; every error body is
// exactly {"error": …} or {"errors": [{index, error}…]}; a refused request changes nothing.
// Bounded in `npm test` (FUZZ_RUNS, default 300, fixed FUZZ_SEED); `npm run test:fuzz` runs more.
// Its own server and limiter keys (tests/instances/fuzz-server.ts), so that its invalid keys do
// not spend the other suites' per-address allowance. Image routes: fuzz-images.integration.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { db } from "../../server/platform/db";
import { contractErrorShape } from "../helpers";
import { checkAgainstDocument } from "../document-check";
import { operationsOf, requestOf, type Doc } from "./fuzz-requests";
import { RUNS, SEED, withFuzzServer } from "./fuzz-server";

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
  const fuzz = withFuzzServer("fuzz:");

  it(`${RUNS} generated requests: no 5xx, contract-shaped errors, refusals change nothing`, async () => {
    const { server, callers, userIds, teamId } = fuzz;
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
});
