// Idempotent retries (contract: "Idempotent retries"): a retry with the same Idempotency-Key and
// request gets the first answer and changes nothing; another request with that key is 422; one
// while the first runs is 409; only 2xx answers are kept; keys are per library and key owner;
// the gate runs on replays; exact across two instances sharing the database.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { removeExpiredIdempotencyKeys } from "../../server/idempotency";
import { timeOrderedId } from "../../server/platform/ids";
import { BASE_URL, http, makeTeam, personalKey, revokeKey, withPair } from "../helpers";

type Created = { created: { code: string; name: string }[] };
const dynamic = (name: string) => ({ destination_url: "https://example.com/idem", name });
const countCodes = async (key: string) =>
  ((await http("GET", "/v1/dynqrcodes?limit=100", { key })).body as { dynqrcodes: unknown[] }).dynqrcodes.length;

/** POSTs one dynamic code to `base` without pacing (for requests that must arrive together). */
const rawPost = (base: string, key: string, idempotencyKey: string, json: unknown) =>
  fetch(`${base}/v1/dynqrcodes`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json", "idempotency-key": idempotencyKey },
    body: JSON.stringify(json),
  });

describe("Idempotency-Key", () => {
  it("a retry gets the first answer, marked replayed, and creates nothing", async () => {
    const { key } = await personalKey();
    const first = await http("POST", "/v1/dynqrcodes", {
      key,
      json: dynamic("once"),
      headers: { "Idempotency-Key": "create-1" },
    });
    assert.equal(first.status, 201);
    assert.equal(first.headers.get("idempotent-replayed"), null);
    const again = await http("POST", "/v1/dynqrcodes", {
      key,
      json: dynamic("once"),
      headers: { "Idempotency-Key": "create-1" },
    });
    assert.deepEqual([again.status, again.text, again.headers.get("idempotent-replayed")], [201, first.text, "true"]);
    assert.ok(
      again.headers.get("x-request-id") && again.headers.get("x-request-id") !== first.headers.get("x-request-id"),
      "a replay is a request of its own",
    );
    assert.equal(
      again.headers.get("x-ratelimit-remaining"),
      String(Number(first.headers.get("x-ratelimit-remaining")) - 1),
      "the gate counts replays",
    );
    assert.equal(await countCodes(key), 1);
  });

  it("the same key with another body, path or method is 422 and changes nothing", async () => {
    const { key } = await personalKey();
    const code = (
      (await http("POST", "/v1/dynqrcodes", { key, json: dynamic("a"), headers: { "Idempotency-Key": "k" } }))
        .body as Created
    ).created[0].code;
    for (const [method, path, json] of [
      ["POST", "/v1/dynqrcodes", dynamic("b")],
      ["POST", "/v1/qrcodes", { url: "https://example.com", name: "a" }],
      ["PATCH", `/v1/dynqrcodes/${code}`, { name: "renamed" }],
    ] as const) {
      const r = await http(method, path, { key, json, headers: { "Idempotency-Key": "k" } });
      assert.deepEqual(
        [r.status, r.body],
        [422, { error: "Idempotency-Key was used with a different request" }],
        `${method} ${path}`,
      );
    }
    const listed = (await http("GET", "/v1/dynqrcodes", { key })).body as { dynqrcodes: { name: string }[] };
    assert.deepEqual(
      listed.dynqrcodes.map((d) => d.name),
      ["a"],
    );
    assert.equal(((await http("GET", "/v1/qrcodes", { key })).body as { qrcodes: unknown[] }).qrcodes.length, 0);
  });

  it("only 2xx answers are kept: after a 400 the same key runs again", async () => {
    const { key } = await personalKey();
    const bad = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "ftp://x", name: "bad" },
      headers: { "Idempotency-Key": "retry-me" },
    });
    assert.equal(bad.status, 400);
    const badAgain = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "ftp://x", name: "bad" },
      headers: { "Idempotency-Key": "retry-me" },
    });
    assert.deepEqual([badAgain.status, badAgain.headers.get("idempotent-replayed")], [400, null]);
    const good = await http("POST", "/v1/dynqrcodes", {
      key,
      json: dynamic("fixed"),
      headers: { "Idempotency-Key": "retry-me" },
    });
    assert.equal(good.status, 201, "the key was not spent by the failures");
    assert.equal(await countCodes(key), 1);
  });

  it("PATCH, DELETE and batch creates replay too", async () => {
    const { key } = await personalKey();
    const batch = { dynqrcodes: [dynamic("one"), dynamic("two")] };
    const made = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: batch,
      headers: { "Idempotency-Key": "batch" },
    });
    const replayedBatch = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: batch,
      headers: { "Idempotency-Key": "batch" },
    });
    assert.deepEqual([replayedBatch.status, replayedBatch.text], [201, made.text]);
    assert.equal(await countCodes(key), 2);
    const code = (made.body as Created).created[0].code;
    const patched = await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key,
      json: { status: "paused" },
      headers: { "Idempotency-Key": "pause" },
    });
    await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { status: "active" } });
    const replayedPatch = await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key,
      json: { status: "paused" },
      headers: { "Idempotency-Key": "pause" },
    });
    assert.deepEqual([replayedPatch.status, replayedPatch.text], [200, patched.text]);
    assert.equal(
      (
        (await http("GET", "/v1/dynqrcodes", { key })).body as { dynqrcodes: { code: string; status: string }[] }
      ).dynqrcodes.find((d) => d.code === code)!.status,
      "active",
      "the replay changed nothing",
    );
    const deleted = await http("DELETE", `/v1/dynqrcodes/${code}`, { key, headers: { "Idempotency-Key": "delete" } });
    const deletedAgain = await http("DELETE", `/v1/dynqrcodes/${code}`, {
      key,
      headers: { "Idempotency-Key": "delete" },
    });
    assert.deepEqual(
      [deletedAgain.status, deletedAgain.text, deletedAgain.headers.get("idempotent-replayed")],
      [200, deleted.text, "true"],
    );
    assert.equal(
      (await http("DELETE", `/v1/dynqrcodes/${code}`, { key })).status,
      404,
      "without the key the second delete is the usual 404",
    );
  });

  it("a malformed key is 400 and changes nothing; GET ignores the header", async () => {
    const { key } = await personalKey();
    for (const value of ["x".repeat(256), "caf\u00e9", "tab\there"]) {
      const r = await http("POST", "/v1/dynqrcodes", {
        key,
        json: dynamic("x"),
        headers: { "Idempotency-Key": value },
      });
      assert.deepEqual(
        [r.status, r.body],
        [400, { error: "Idempotency-Key must be 1 to 255 printable ASCII characters" }],
        JSON.stringify(value.slice(0, 10)),
      );
    }
    assert.equal(await countCodes(key), 0);
    assert.equal(
      (
        await http("POST", "/v1/dynqrcodes", {
          key,
          json: dynamic("x"),
          headers: { "Idempotency-Key": "~".repeat(255) },
        })
      ).status,
      201,
    );
    assert.equal(
      (await http("GET", "/v1/dynqrcodes", { key, headers: { "Idempotency-Key": "caf\u00e9" } })).status,
      200,
    );
  });

  it("keys are per library and key owner: the same key in two libraries creates in each", async () => {
    const a = await personalKey();
    const b = await personalKey();
    const team = await makeTeam();
    const writer = await team.addWriter();
    for (const key of [a.key, b.key, team.adminKey, writer.key]) {
      assert.equal(
        (await http("POST", "/v1/dynqrcodes", { key, json: dynamic("shared"), headers: { "Idempotency-Key": "same" } }))
          .status,
        201,
      );
    }
    assert.equal(await countCodes(a.key), 1);
    assert.equal(await countCodes(b.key), 1);
    assert.equal(await countCodes(team.adminKey), 2, "the admin's and the writer's keys are two owners in one library");
  });

  it("the gate runs on replays: a revoked key gets 401, not the stored answer", async () => {
    const { user, key, keyId } = await personalKey();
    assert.equal(
      (await http("POST", "/v1/dynqrcodes", { key, json: dynamic("x"), headers: { "Idempotency-Key": "gate" } }))
        .status,
      201,
    );
    await revokeKey(keyId, user.id);
    const r = await http("POST", "/v1/dynqrcodes", { key, json: dynamic("x"), headers: { "Idempotency-Key": "gate" } });
    assert.deepEqual([r.status, r.body], [401, { error: "API key has been revoked" }]);
  });

  it("two requests with one key at once: one runs, the other is 409 or its replay; one record", async () => {
    const { key } = await personalKey();
    const replies = await Promise.all([
      rawPost(BASE_URL, key, "together", dynamic("x")),
      rawPost(BASE_URL, key, "together", dynamic("x")),
    ]);
    const statuses = replies.map((r) => r.status).sort();
    const bodies = await Promise.all(replies.map((r) => r.json()));
    assert.ok(
      (statuses[0] === 201 && statuses[1] === 409) ||
        (statuses[0] === 201 &&
          statuses[1] === 201 &&
          replies.some((r) => r.headers.get("idempotent-replayed") === "true")),
      `${statuses.join(", ")} ${JSON.stringify(bodies)}`,
    );
    if (statuses[1] === 409)
      assert.ok(
        bodies.some(
          (b) => JSON.stringify(b) === JSON.stringify({ error: "A request with this Idempotency-Key is in progress" }),
        ),
      );
    assert.equal(await countCodes(key), 1);
  });

  it("a claim left by a crashed request is taken over once it expires; a live claim is 409", async () => {
    const { user, key } = await personalKey();
    const body = JSON.stringify(dynamic("after crash"));
    const { requestHash } = await import("../../server/idempotency");
    const claim = (idemKey: string, claimedUntil: Date) =>
      db.idempotencyKey.create({
        data: {
          id: timeOrderedId("idem"),
          library: `user:${user.id}`,
          ownerId: user.id,
          key: idemKey,
          requestHash: requestHash("POST", "/dynqrcodes", body),
          claimedUntil,
          expiresAt: new Date(Date.now() + 86_400_000),
        },
      });
    await claim("running", new Date(Date.now() + 60_000));
    const busy = await http("POST", "/v1/dynqrcodes", {
      key,
      body,
      headers: { "content-type": "application/json", "Idempotency-Key": "running" },
    });
    assert.deepEqual([busy.status, busy.body], [409, { error: "A request with this Idempotency-Key is in progress" }]);
    await claim("crashed", new Date(Date.now() - 1000));
    const taken = await http("POST", "/v1/dynqrcodes", {
      key,
      body,
      headers: { "content-type": "application/json", "Idempotency-Key": "crashed" },
    });
    assert.equal(taken.status, 201);
    const replay = await http("POST", "/v1/dynqrcodes", {
      key,
      body,
      headers: { "content-type": "application/json", "Idempotency-Key": "crashed" },
    });
    assert.deepEqual(
      [replay.status, replay.text, replay.headers.get("idempotent-replayed")],
      [201, taken.text, "true"],
    );
    assert.equal(await countCodes(key), 1);
  });

  it("after 24 hours a key is new again, and the sweep removes it", async () => {
    const { user, key } = await personalKey();
    const send = () =>
      http("POST", "/v1/dynqrcodes", { key, json: dynamic("daily"), headers: { "Idempotency-Key": "day" } });
    assert.equal((await send()).status, 201);
    // The day passes: the stored answer's expiry is moved into the past.
    await db.idempotencyKey.updateMany({
      where: { ownerId: user.id, key: "day" },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    const next = await send();
    assert.deepEqual([next.status, next.headers.get("idempotent-replayed")], [201, null]);
    assert.equal(await countCodes(key), 2);
    await db.idempotencyKey.updateMany({
      where: { ownerId: user.id, key: "day" },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    assert.ok((await removeExpiredIdempotencyKeys()) >= 1);
    assert.equal(await db.idempotencyKey.count({ where: { ownerId: user.id } }), 0);
  });
});

describe("Idempotency-Key on two instances sharing the database", () => {
  const pair = withPair();
  it("requests with one key sent to both instances at once create one record", async () => {
    const { key } = await personalKey();
    for (let round = 0; round < 5; round++) {
      const replies = await Promise.all([
        rawPost(pair.a.base, key, `both-${round}`, dynamic(`r${round}`)),
        rawPost(pair.b.base, key, `both-${round}`, dynamic(`r${round}`)),
      ]);
      const statuses = replies.map((r) => r.status);
      assert.ok(statuses.includes(201) && statuses.every((s) => s === 201 || s === 409), statuses.join(", "));
      await new Promise((r) => setTimeout(r, 450)); // the key's bucket: 5 a second
    }
    assert.equal(await countCodes(key), 5);
  });
});
