// Issue 39, point 5: two editors of one code. /v1 PATCH takes If-Unmodified-Since (412 when the
// record changed after it, nothing changed); the pages' update sends the updated_at its form
// loaded, and so does its style editor (the browser's side: e2e/stale-save.spec.ts). The record is made older in the database
// instead of waiting for the clock's next second.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { http, logIn, personalKey } from "../helpers";

type Dyn = { code: string; name: string; destination_url: string; updated_at: number };

const httpDate = (seconds: number) => new Date(seconds * 1000).toUTCString();

async function listedCode(key: string, code: string): Promise<Dyn> {
  const r = await http("GET", "/v1/dynqrcodes?limit=100", { key });
  return (r.body as { dynqrcodes: Dyn[] }).dynqrcodes.find((d) => d.code === code)!;
}

/** A code whose last change was an hour ago, and its record as listed. */
async function hourOldCode(key: string) {
  const { code } = (
    (
      await http("POST", "/v1/dynqrcodes", {
        key,
        json: { destination_url: "https://example.com/first", name: "First" },
      })
    ).body as { created: Dyn[] }
  ).created[0];
  await db.dynamicCode.updateMany({ where: { code }, data: { updatedAt: new Date(Date.now() - 3600_000) } });
  return listedCode(key, code);
}

describe("stale saves", () => {
  it("/v1 PATCH with If-Unmodified-Since: 200 when fresh, 412 when the record changed after it (nothing changed), 400 when not an HTTP-date", async () => {
    const { key } = await personalKey();
    const seen = await hourOldCode(key);
    const fresh = await http("PATCH", `/v1/dynqrcodes/${seen.code}`, {
      key,
      json: { name: "Mine" },
      headers: { "if-unmodified-since": httpDate(seen.updated_at) },
    });
    assert.equal(fresh.status, 200, fresh.text);
    const saved = fresh.body as Dyn;
    assert.equal(saved.name, "Mine");
    assert.ok(saved.updated_at > seen.updated_at);

    // A second editor who read the record before that save.
    const stale = await http("PATCH", `/v1/dynqrcodes/${seen.code}`, {
      key,
      json: { name: "Theirs", destination_url: "https://example.com/theirs" },
      headers: { "if-unmodified-since": httpDate(seen.updated_at) },
    });
    assert.deepEqual(
      [stale.status, stale.body],
      [412, { error: "The code was changed after If-Unmodified-Since: read it again, then retry" }],
    );
    assert.ok(stale.headers.get("x-request-id"));
    assert.deepEqual(await listedCode(key, seen.code), saved, "nothing changed");

    // The obsolete HTTP-date forms read the same (RFC 9110); a later date passes too.
    const [day, date, month, year, time] = httpDate(saved.updated_at).split(/,? /); // "Sat, 21 Nov 2026 09:30:00 GMT"
    const weekday = {
      Sun: "Sunday",
      Mon: "Monday",
      Tue: "Tuesday",
      Wed: "Wednesday",
      Thu: "Thursday",
      Fri: "Friday",
      Sat: "Saturday",
    }[day];
    const rfc850 = `${weekday}, ${date}-${month}-${year.slice(2)} ${time} GMT`;
    const again = await http("PATCH", `/v1/dynqrcodes/${seen.code}`, {
      key,
      json: { name: "Mine again" },
      headers: { "if-unmodified-since": rfc850 },
    });
    assert.equal(again.status, 200, `${rfc850}: ${again.text}`);
    const later = await http("PATCH", `/v1/dynqrcodes/${seen.code}`, {
      key,
      json: { name: "Later" },
      headers: { "if-unmodified-since": httpDate((again.body as Dyn).updated_at + 3600) },
    });
    assert.equal(later.status, 200, later.text);

    for (const value of [
      "yesterday",
      "1795392000",
      "Sat, 31 Feb 2026 09:30:00 GMT",
      "Sat, 21 Nov 2026 09:30:00 UTC",
      `${httpDate(saved.updated_at)}, ${httpDate(saved.updated_at)}`,
    ]) {
      const bad = await http("PATCH", `/v1/dynqrcodes/${seen.code}`, {
        key,
        json: { name: "Never" },
        headers: { "if-unmodified-since": value },
      });
      assert.deepEqual(
        [bad.status, bad.body],
        [400, { error: "If-Unmodified-Since must be one HTTP-date such as Sun, 06 Nov 1994 08:49:37 GMT" }],
        value,
      );
    }
    assert.equal((await listedCode(key, seen.code)).name, "Later");
  });

  it("without the header a PATCH saves as before; the document names the header and the 412", async () => {
    const { key } = await personalKey();
    const seen = await hourOldCode(key);
    assert.equal((await http("PATCH", `/v1/dynqrcodes/${seen.code}`, { key, json: { name: "One" } })).status, 200);
    assert.equal((await http("PATCH", `/v1/dynqrcodes/${seen.code}`, { key, json: { name: "Two" } })).status, 200);
    const doc = (await http("GET", "/v1/openapi.json")).body as {
      paths: Record<string, Record<string, { parameters: { name?: string }[]; responses: Record<string, unknown> }>>;
    };
    const patch = doc.paths["/dynqrcodes/{code}"].patch;
    assert.ok(patch.parameters.some((p) => p.name === "If-Unmodified-Since"));
    assert.ok(patch.responses["412"]);
  });

  it("the pages' update: the updated_at the form loaded saves once; a second form opened before is refused with the page's message", async () => {
    const { key, user } = await personalKey();
    const seen = await hourOldCode(key);
    const page = await logIn(user.email);
    const items = (
      (await page.query("library.page", { scope: "personal" })) as { items: { id: string; updatedAt: string }[] }
    ).items;
    const loaded = items.find((i) => i.id === seen.code)!.updatedAt;
    assert.equal(
      Date.parse(loaded),
      (await db.dynamicCode.findFirstOrThrow({ where: { code: seen.code } })).updatedAt.getTime(),
      "to the millisecond",
    );
    await page("library.update", { scope: "personal", updatedAt: loaded, patch: { code: seen.code, name: "Tab one" } });
    await assert.rejects(
      page("library.update", { scope: "personal", updatedAt: loaded, patch: { code: seen.code, name: "Tab two" } }),
      { message: "This code was changed since you opened it — reload" },
    );
    assert.equal((await listedCode(key, seen.code)).name, "Tab one");
  });

  it("the pages' style save: the updated_at the editor loaded saves once; a second editor opened before is refused and nothing changes (static and dynamic)", async () => {
    const { key, user } = await personalKey();
    const dynamic = await hourOldCode(key);
    const { qr_id } = (
      (await http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com/static", name: "Static" } }))
        .body as { created: { qr_id: string }[] }
    ).created[0];
    await db.staticCode.update({ where: { id: qr_id }, data: { updatedAt: new Date(Date.now() - 3600_000) } });
    const page = await logIn(user.email);
    const items = (
      (await page.query("library.page", { scope: "personal" })) as {
        items: { kind: "static" | "dynamic"; id: string; updatedAt: string }[];
      }
    ).items;
    for (const [kind, id] of [
      ["dynamic", dynamic.code],
      ["static", qr_id],
    ] as const) {
      const loaded = items.find((i) => i.id === id)!.updatedAt;
      const at = { scope: "personal", kind, id, updatedAt: loaded };
      assert.deepEqual(
        await page("library.saveStyle", { ...at, style: { foreground: "#112233" } }),
        { style: { foreground: "#112233" } },
        kind,
      );
      await assert.rejects(
        page("library.saveStyle", { ...at, style: { foreground: "#445566" } }),
        { message: "This code was changed since you opened it — reload" },
        kind,
      );
      // The same tab's rules editor or edit form, opened before that save, is refused too.
      if (kind === "dynamic")
        await assert.rejects(
          page("library.update", { scope: "personal", updatedAt: loaded, patch: { code: id, name: "Late" } }),
          { message: "This code was changed since you opened it — reload" },
        );
      const list = kind === "static" ? "qrcodes" : "dynqrcodes";
      const listed = (
        (await http("GET", `/v1/${list}?limit=100`, { key })).body as Record<
          string,
          { code?: string; qr_id?: string; style: unknown }[]
        >
      )[list];
      assert.deepEqual(
        listed.find((r) => (r.code ?? r.qr_id) === id)!.style,
        { foreground: "#112233" },
        `${kind}: the first save stays`,
      );
    }
    assert.equal((await listedCode(key, dynamic.code)).name, "First");
  });
});
