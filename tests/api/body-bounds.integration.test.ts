// The pages' body bounds (issue 37; server/http/body-bounds.ts): a call's body is read only up to
// its bound; above it, 413 in tRPC's error shape, read no further, with nothing changed. The largest
// valid input, however it is encoded, is taken, alone or in a batch.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pagesBodyBound } from "../../server/http/body-bounds";
import { escapedJson } from "../escaped-json";
import { BASE_URL, logIn, makeUser, TEST_PASSWORD } from "../helpers";

const create = (i: number) => ({
  scope: "personal",
  kind: "static",
  name: "😀".repeat(200),
  url: `https://example.com/${i}${"a".repeat(2048 - 21)}`,
});

describe("the pages' body bounds", () => {
  it("a body over its call's bound → 413, nothing created; the largest valid input, every character escaped, is taken alone and batched", async () => {
    const user = await makeUser("pro");
    const page = await logIn(user.email, TEST_PASSWORD);
    const post = (procedures: string, body: string) =>
      fetch(`${BASE_URL}/api/trpc/${procedures}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: page.cookie(), origin: BASE_URL },
        body,
      });
    const total = async () =>
      ((await page.query("library.page", { scope: "personal", kind: "static" })) as { total: number }).total;

    const bound = pagesBodyBound("library.create");
    assert.equal(bound, 16 * 1024);
    const over = await post("library.create", JSON.stringify({ ...create(0), name: "x".repeat(bound) }));
    assert.equal(over.status, 413);
    assert.deepEqual(await over.json(), { error: { message: "The body must be at most 16 KiB" } });
    assert.equal(await total(), 0, "nothing was created");

    const alone = escapedJson(create(1));
    assert.ok(alone.length > 14 * 1024, `${alone.length} bytes`);
    assert.equal((await post("library.create", alone)).status, 200);
    // The pages' client batches: two calls at their largest, over one call's bound, are two calls' worth.
    const batched = await post("library.create,library.create?batch=1", escapedJson({ 0: create(2), 1: create(3) }));
    assert.equal(batched.status, 200);
    assert.deepEqual(await batched.json(), [
      { result: { data: { created: 1 } } },
      { result: { data: { created: 1 } } },
    ]);
    assert.equal(await total(), 3);
  });
});
