// The six services' readers and the one mapping of their links to our codes (docs/IMPORTERS.md),
// on generated exports of 1,040 links each: how many are kept, their fields, and each refused
// row with its line and reason.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { CSV_OPTIONS, type ParsedRecord } from "../../clients/typescript/src/csv-rows";
import { planImport, SERVICE_NAMES, SERVICES } from "../../clients/typescript/src/import-from";
import { bundleOf } from "../../clients/typescript/src/import-from/bundle";
import { instant, splitShortUrl } from "../../clients/typescript/src/import-from/common";
import { generateExport } from "../fixtures/import-from/exports";

const readCsv = (text: string) => parse(text, CSV_OPTIONS) as unknown as ParsedRecord[];
const read = (service: keyof typeof SERVICES, text: string) => SERVICES[service].read(text, readCsv);

/** What each kind of bad row is refused with. */
const REASONS: Record<string, RegExp> = {
  "no-url": /^no destination URL$/,
  "bad-url": /^destination is not an http\(s\) URL: javascript:/,
  "bad-code": /^back-half ".+" cannot be kept: 1 to 64 of 0-9 A-Z a-z _ - only$/,
  duplicate: /^back-half \S+ is kept by \S+ \(line \d+\): one code per back-half$/,
  banned: /^banned at Kutt: not moved$/,
};

describe("import-from readers on each service's export", () => {
  for (const service of SERVICE_NAMES)
    it(`${service}: every good link kept with its fields, every bad row refused with its line and reason`, () => {
      const fixture = generateExport(service, "u");
      const parsed = read(service, fixture.text);
      const plan = planImport(service, parsed.rows, {});
      const rejected = [...parsed.rejected, ...plan.rejected].sort((a, b) => a.line - b.line);
      // The reserved back-half is refused by the server, not by the reader: it is planned.
      const readerRefused = fixture.refused.filter((r) => r.kind !== "reserved");
      assert.ok(fixture.kept.length >= 900, `${fixture.kept.length} good links`);
      assert.deepEqual(
        rejected.map((r) => r.line),
        readerRefused.map((r) => r.line),
      );
      for (const [i, r] of rejected.entries())
        assert.match(r.error, REASONS[readerRefused[i].kind], `line ${r.line} (${readerRefused[i].kind})`);
      const reserved = fixture.refused.find((r) => r.kind === "reserved")!;
      assert.deepEqual(
        plan.codes.map((c) => c.line),
        [...fixture.kept.map((k) => k.line), reserved.line].sort((a, b) => a - b),
      );

      const byLine = new Map(plan.codes.map((c) => [c.line, c]));
      for (const want of fixture.kept) {
        const { item } = byLine.get(want.line)!;
        assert.equal(item.code, want.code);
        assert.equal(item.destination_url, want.destination);
        const name = want.title.replace(/[\u0000-\u001f]+/g, " ").trim();
        if (name === "") assert.match(item.name, new RegExp(`^(sho\\.rt|go\\.brand\\.example)/${want.code}$`));
        else if ([...name].length <= 200) assert.equal(item.name, name);
        else assert.equal([...item.name].length, 200, "a long title is cut to 200 characters");
        assert.equal(item.metadata.imported_from, service);
        assert.equal(item.metadata.clicks_before, want.clicks === null ? undefined : String(want.clicks));
        assert.equal(item.external_id.startsWith(`${service}:`), true);
        assert.equal("domain" in item, false, "no domain without --domain");
      }
      // Tags and the creation time there go to metadata where the export has them.
      const tagged = plan.codes.find((c) => c.item.metadata.tags);
      if (service !== "yourls" && service !== "kutt" && service !== "rebrandly")
        assert.equal(tagged?.item.metadata.tags, "spring, print ✨");
      assert.ok(plan.codes.filter((c) => c.item.metadata.created_at_before).length >= plan.codes.length - 1);
    });

  it("Bitly: a link's branded back-halves are links of their own; Kutt: pages or a bare list", () => {
    const bitly = JSON.stringify({
      links: [
        {
          link: "https://bit.ly/3xYz",
          custom_bitlinks: ["https://go.example.com/spring", "https://bit.ly/3xYz"],
          long_url: "https://example.com/spring",
          title: "Spring",
          created_at: "2024-03-05T10:11:12+0000",
          tags: [],
          archived: true,
        },
      ],
    });
    const parsed = read("bitly", bitly);
    assert.deepEqual(
      parsed.rows.map((r) => [r.line, r.host, r.code, r.createdAt, r.archived]),
      [
        [1, "bit.ly", "3xYz", 1709633472, true],
        [1, "go.example.com", "spring", 1709633472, true],
      ],
    );
    const kutt = [{ address: "abc", link: "https://kutt.it/abc", target: "https://example.com", visit_count: 3 }];
    assert.deepEqual(read("kutt", JSON.stringify(kutt)).rows[0].clicks, 3);
  });

  it("a file of another service, or not an export, is refused whole with a message naming the service", () => {
    assert.throws(
      () => read("dub", "name,url\na,https://example.com\n"),
      /Not Dub's CSV export: the header lacks Short link, Destination URL/,
    );
    assert.throws(() => read("yourls", "{}"), /Not YOURLS's JSON export/);
    assert.throws(() => read("rebrandly", "<html>"), /Not Rebrandly's JSON export/);
    assert.throws(() => read("shlink", ""), /The file is empty/);
  });
});

describe("planImport", () => {
  const link = (line: number, host: string, code: string) => ({
    line,
    code,
    host,
    destination: `https://example.com/${line}`,
    title: "",
    createdAt: null,
    tags: [],
    clicks: null,
    archived: false,
    cells: {},
  });

  it("gives a back-half held twice to the link on the domain moved over, and sends the domain", () => {
    const plan = planImport("bitly", [link(1, "bit.ly", "x"), link(2, "go.example.com", "x"), link(3, "bit.ly", "y")], {
      domain: "GO.example.com",
    });
    assert.deepEqual(
      plan.codes.map((c) => [c.line, c.code, c.item.domain, c.item.name]),
      [
        [2, "x", "go.example.com", "go.example.com/x"],
        [3, "y", "go.example.com", "bit.ly/y"],
      ],
    );
    assert.deepEqual(
      plan.rejected.map((r) => [r.line, r.error]),
      [[1, "back-half x is kept by go.example.com/x (line 2): one code per back-half"]],
    );
  });
});

describe("the exports' dates and short links", () => {
  it("reads each service's date forms, and refuses what is not on the calendar", () => {
    for (const [value, want] of [
      ["2024-03-05T10:11:12+0000", 1709633472],
      ["2024-03-05T12:11:12+02:00", 1709633472],
      ["2024-03-05T10:11:12.345Z", 1709633472],
      ["2024-03-05 10:11:12", 1709633472],
      ["1709633472", 1709633472],
      [1709633472345, 1709633472],
      ["2024-03-05", 1709596800],
      ["0000-00-00 00:00:00", null],
      ["2026-02-31T10:00:00+0000", null],
      ["yesterday", null],
      ["", null],
    ] as const)
      assert.equal(instant(value), want, String(value));
  });

  it("splits short links with or without a scheme", () => {
    assert.deepEqual(splitShortUrl("rebrand.ly/Abc_1"), { host: "rebrand.ly", code: "Abc_1" });
    assert.deepEqual(splitShortUrl("https://Go.Example.com/x-y/"), { host: "go.example.com", code: "x-y" });
  });
});

describe("bundleOf", () => {
  it("writes the planned codes as bundle lines, the same on every run, each line back to its code", () => {
    const parsed = SERVICES.yourls.read(generateExport("yourls", "b", 30).text, readCsv);
    const plan = planImport("yourls", parsed.rows, { domain: "go.example.com" });
    const bundle = bundleOf(plan.codes);
    const lines = bundle.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines.slice(0, 2), [
      { type: "bundle", version: 1 },
      { type: "domain", domain: "go.example.com" },
    ]);
    assert.equal(lines.length, 2 + plan.codes.length);
    for (const [i, line] of lines.entries()) {
      const code = bundle.codeAt[i + 1];
      if (i < 2) assert.equal(code, null);
      else
        assert.deepEqual(line, {
          type: "dynamic",
          code: code!.code,
          domain: "go.example.com",
          destination_url: code!.item.destination_url,
          name: code!.item.name,
          metadata: code!.item.metadata,
          external_id: code!.item.external_id,
          created_at: code!.createdAt ?? 0,
        });
    }
    // YOURLS's zero date (link 4) gets the epoch: the same line on every run.
    assert.equal(lines.find((l) => l.code === plan.codes.find((c) => c.line === 4)!.code)!.created_at, 0);
    assert.equal(bundleOf(plan.codes).text, bundle.text);
  });
});
