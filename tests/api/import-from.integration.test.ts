// `qr-records import-from` against the running server, for each of the six services, on a
// generated export of 1,040 links written from its documented format (tests/fixtures/import-from):
// every kept back-half is a code of the library redirecting to its destination, created when the
// service made it, with the clicks the export counted in its metadata; <file>.rejected.csv lists
// every bad row by line; the same file run again, or the same links in another file, creates nothing.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { SERVICE_NAMES } from "../../clients/typescript/src/import-from";
import { BASE_URL, personalKey } from "../helpers";
import { all, cli, client, dir } from "../cli-runner";
import { generateExport } from "../fixtures/import-from/exports";

const RUN = randomBytes(3).toString("hex");

/** Where /q/<code> sends a phone. */
async function redirectOf(code: string): Promise<string | null> {
  const answer = await fetch(`${BASE_URL}/q/${code}`, {
    redirect: "manual",
    headers: { "user-agent": "Mozilla/5.0 (iPhone)" },
  });
  return answer.headers.get("location");
}

describe("qr-records import-from", () => {
  for (const service of SERVICE_NAMES)
    it(`${service}: 1,040 links moved, back-halves redirecting, bad rows reported by line, nothing twice`, async () => {
      const { key } = await personalKey();
      const fixture = generateExport(service, `${service.slice(0, 2)}${RUN}`);
      const file = path.join(dir, `${service}-export.${service === "dub" || service === "shlink" ? "csv" : "json"}`);
      writeFileSync(file, fixture.text);

      const first = await cli(["import-from", service, file], key);
      assert.equal(first.code, 2, first.stderr); // some rows rejected
      const kept = fixture.kept.length;
      assert.match(
        first.stdout,
        new RegExp(
          `: ${kept} of \\d+ links imported from ${service} \\(${kept} created now, 0 by an earlier run\\); ${fixture.refused.length} rejected, see ${file.replaceAll(".", "\\.")}\\.rejected\\.csv`,
        ),
      );

      // Every kept link is a code of the library with its back-half, destination and the clicks counted there.
      const codes = new Map((await all(client(key).dynamicCodes())).map((c) => [c.code, c]));
      assert.equal(codes.size, kept);
      for (const want of fixture.kept) {
        const made = codes.get(want.code);
        assert.ok(made, `back-half ${want.code} kept`);
        assert.equal(made.destination_url, want.destination);
        assert.equal(made.status, "active");
        assert.equal(made.created_at, want.createdAt ?? 0, `created_at of ${want.code}`);
        assert.equal(made.metadata.imported_from, service);
        assert.equal(made.metadata.clicks_before, want.clicks === null ? undefined : String(want.clicks));
      }
      // Every 20th back-half, printed on paper, still takes a phone to its destination.
      for (const want of fixture.kept.filter((_, i) => i % 20 === 0))
        assert.equal(await redirectOf(want.code), want.destination, want.code);

      // The report: every refused row, by line, with its reason, and its cells as the file had them.
      const report = parse(readFileSync(`${file}.rejected.csv`), { columns: true }) as Record<string, string>[];
      assert.deepEqual(
        report.map((r) => Number(r.line)),
        fixture.refused.map((r) => r.line),
      );
      const reserved = report.find((r) => Number(r.line) === fixture.refused.find((x) => x.kind === "reserved")!.line)!;
      assert.match(reserved.error, /code export is reserved/);
      assert.ok(Object.keys(report[0]).length > 2, "the row's own cells follow line and error");

      // The same file again: every link already imported, nothing created.
      const again = await cli(["import-from", service, file], key);
      assert.equal(again.code, 2);
      assert.match(
        again.stdout,
        new RegExp(`: ${kept} of \\d+ links imported from ${service} \\(0 created now, ${kept} by an earlier run\\)`),
      );
      assert.equal((await all(client(key).dynamicCodes())).length, kept);
    });

  it("the same links in a file changed since: counted as there, not created nor refused", async () => {
    const { key } = await personalKey();
    const fixture = generateExport("rebrandly", `re2${RUN}`, 120);
    const file = path.join(dir, "rebrandly-small.json");
    writeFileSync(file, fixture.text);
    const first = await cli(["import-from", "rebrandly", file], key);
    assert.equal(first.code, 2, first.stderr);
    // Re-exported: the same links, written without the indentation.
    writeFileSync(file, JSON.stringify(JSON.parse(fixture.text)));
    const again = await cli(["import-from", "rebrandly", file], key);
    const kept = fixture.kept.length;
    assert.match(
      again.stdout,
      new RegExp(`: ${kept} of 120 links imported from rebrandly \\(0 created now, ${kept} by an earlier run\\)`),
    );
    assert.equal((await all(client(key).dynamicCodes())).length, kept);
  });

  it("refuses an unknown service, a file of another service, and a bad --domain, creating nothing", async () => {
    const { key } = await personalKey();
    const file = path.join(dir, "not-dub.csv");
    writeFileSync(file, "name,url\nMenu,https://example.com\n");
    const unknown = await cli(["import-from", "tinyurl", file], key);
    assert.deepEqual(
      [
        unknown.code,
        /Unknown service: tinyurl \(one of bitly, dub, shlink, yourls, kutt, rebrandly\)/.test(unknown.stderr),
      ],
      [1, true],
    );
    const other = await cli(["import-from", "dub", file], key);
    assert.deepEqual(
      [other.code, /Not Dub's CSV export: the header lacks Short link, Destination URL/.test(other.stderr)],
      [1, true],
    );
    const domain = await cli(["import-from", "dub", file, "--domain", "https://go.example.com/"], key);
    assert.deepEqual([domain.code, /--domain must be a host name/.test(domain.stderr)], [1, true]);
    assert.equal((await all(client(key).dynamicCodes())).length, 0);
  });

  it("--domain: the codes on the domain moved over, the domain added unverified; another library's domain refused whole", async () => {
    const moved = `dd${RUN}.example.com`;
    const dub = path.join(dir, "links.csv");
    writeFileSync(dub, generateExport("dub", `dd${RUN}`, 10).text);
    const owner = await personalKey();
    const first = await cli(["import-from", "dub", dub, "--domain", moved], owner.key);
    assert.ok(first.code === 0 || first.code === 2, first.stderr);
    const codes = await all(client(owner.key).dynamicCodes());
    assert.ok(codes.length > 0);
    for (const c of codes as { code: string; domain: string | null; short_url: string }[])
      assert.deepEqual([c.domain, c.short_url], [moved, `https://${moved}/${c.code}`]);
    const domains = (await client(owner.key).api.GET("/domains")).data as {
      domains: { domain: string; verified: boolean }[];
    };
    assert.deepEqual(
      domains.domains.map((d) => [d.domain, d.verified]),
      [[moved, false]],
    );
    // The same domain for another library: the bundle is refused whole, with the server's reason.
    const { key } = await personalKey();
    const refused = await cli(["import-from", "dub", dub, "--domain", moved], key);
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stderr, /^qr-records: The import was refused: /m);
    assert.match(refused.stderr, new RegExp(`domain ${moved.replace(/\./g, "\\.")} belongs to another library`));
    assert.equal((await all(client(key).dynamicCodes())).length, 0);
  });
});
