// The qr-records command line (clients/typescript/src/cli) against the running server: an import
// of 5,000 rows killed half-way and run again makes exactly 5,000 records; rejected rows are
// reported by line with the contract's messages and nothing is created twice; export and
// analytics print what the API answers; every command has --help. list, get and update-many:
// cli-records.integration.test.ts.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { db } from "../../server/platform/db";
import { http, makeTeam, personalKey } from "../helpers";
import { decodePng, pngSize } from "../qr-decode";
import { scansOf } from "../scans";
import { all, cli, client, dir, type Run } from "../cli-runner";

describe("qr-records", () => {
  it("has --help for every command", async () => {
    const main = await cli(["--help"], "");
    assert.equal(main.code, 0);
    assert.match(main.stdout, /^Usage: qr-records <command>/);
    for (const command of [
      "import",
      "import-from",
      "export",
      "analytics",
      "images",
      "list",
      "get",
      "update-many",
      "bundle",
    ]) {
      const help = await cli([command, "--help"], "");
      assert.equal(help.code, 0, command);
      assert.match(help.stdout, new RegExp(`^Usage: qr-records ${command} `), command);
      assert.match(help.stdout, /QR_RECORDS_API_KEY/);
    }
    // The workspace's bin, as `npx qr-records` finds it from the repository's root.
    const viaBin = spawnSync("node_modules/.bin/qr-records", ["--help"], { encoding: "utf8" });
    assert.deepEqual([viaBin.status, viaBin.stdout], [0, main.stdout]);
    const unknown = await cli(["frobnicate"], "");
    assert.deepEqual([unknown.code, /Unknown command: frobnicate/.test(unknown.stderr)], [1, true]);
  });

  it("imports 5,000 rows killed half-way (SIGKILL) and run again: exactly 5,000 records", async () => {
    // A business key: twice the personal key's bucket, so the test takes half the time.
    const { adminKey: key } = await makeTeam();
    const file = path.join(dir, "menus.csv");
    writeFileSync(
      file,
      ["name,url", ...Array.from({ length: 5000 }, (_, i) => `Menu ${i + 1},https://example.com/menu/${i + 1}`)].join(
        "\n",
      ) + "\n",
    );

    const killed = await cli(["import", file], key, (stderr, kill) => {
      const done = [...stderr.matchAll(/^(\d+)\/5000 rows/gm)].map((m) => Number(m[1]));
      if (Math.max(0, ...done) >= 2500) kill();
    });
    assert.equal(killed.signal, "SIGKILL", `killed half-way: ${killed.stderr.slice(-300)}`);

    const rerun = await cli(["import", file], key);
    assert.equal(rerun.code, 0, rerun.stderr);
    const [, created, earlier] =
      /5000 of 5000 rows imported as static codes \((\d+) created now, (\d+) by an earlier run\)/.exec(rerun.stdout) ??
      [];
    assert.ok(
      Number(earlier) >= 2500 && Number(created) > 0 && Number(created) + Number(earlier) === 5000,
      rerun.stdout,
    );

    const names = (await all(client(key).staticCodes())).map((q) => q.name);
    assert.equal(names.length, 5000);
    assert.equal(new Set(names).size, 5000, "no row twice");
  });

  it("reports 7 invalid rows by line with the contract's messages, creates the rest, and nothing twice when run again", async () => {
    const { key } = await personalKey();
    const bad: Record<number, string> = {
      3: "Bad 1,ftp://example.com/x,",
      20: ",https://example.com/no-name,",
      51: "Bad 3,https://example.com/3,live",
      52: "Bad 4,not a url,paused",
      53: `${"x".repeat(201)},https://example.com/long,`,
      100: "Bad 6,,",
      131: "Bad 7,https://user:pw@example.com/,",
    };
    // Lines 2..131: 130 rows; those on lines 25, 50, 75 and 125 paused (a PATCH each after their batch).
    const paused = (line: number) => line % 25 === 0 && !bad[line];
    const lines = [
      "name,destination_url,status",
      ...Array.from(
        { length: 130 },
        (_, i) => bad[i + 2] ?? `Poster ${i + 2},https://example.com/p/${i + 2},${paused(i + 2) ? "paused" : ""}`,
      ),
    ];
    const file = path.join(dir, "posters.csv");
    writeFileSync(file, lines.join("\n") + "\n");

    const check = async (run: Run) => {
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stdout, /123 of 130 rows imported as dynamic codes/);
      const report = parse(readFileSync(`${file}.rejected.csv`), { columns: true }) as {
        line: string;
        error: string;
        name: string;
      }[];
      assert.deepEqual(
        report.map((r) => Number(r.line)),
        [3, 20, 51, 52, 53, 100, 131],
      );
      assert.match(report[0].error, /^destination_url must be an absolute http or https URL/);
      assert.match(report[1].error, /^name /);
      assert.equal(report[2].error, "status must be one of active, paused, draft");
      assert.equal(report[0].name, "Bad 1", "the row's own cells");
      for (const r of report)
        assert.ok(
          run.stdout.includes(`line ${r.line}: ${r.error}`) || Number(r.line) > 100,
          "named on the terminal too",
        );
      const codes = await all(client(key).dynamicCodes());
      assert.equal(codes.length, 123);
      assert.equal(new Set(codes.map((c) => c.name)).size, 123);
      const pausedLines = codes
        .filter((c) => c.status === "paused")
        .map((c) => Number(c.name.split(" ")[1]))
        .sort((a, b) => a - b);
      assert.deepEqual(pausedLines, [25, 50, 75, 125]);
    };
    const first = await cli(["import", file], key);
    await check(first);
    assert.match(first.stdout, /\(123 created now, 0 by an earlier run\)/);
    const again = await cli(["import", file], key);
    await check(again);
    assert.match(again.stdout, /\(0 created now, 123 by an earlier run\)/);

    // The report, fixed, is imported itself: the 7 rows are added, nothing else.
    const report = readFileSync(`${file}.rejected.csv`, "utf8").split("\n");
    const fixed = [
      report[0],
      ...report
        .slice(1)
        .filter(Boolean)
        .map((line, i) => `${line.split(",")[0]},,Fixed ${i},https://example.com/fixed/${i},paused`),
    ];
    writeFileSync(`${file}.rejected.csv`, fixed.join("\n"));
    const fixes = await cli(["import", `${file}.rejected.csv`], key);
    assert.equal(fixes.code, 0, fixes.stdout + fixes.stderr);
    assert.match(fixes.stdout, /7 of 7 rows imported as dynamic codes \(7 created now, 0 by an earlier run\)/);
    const codes = await all(client(key).dynamicCodes());
    assert.equal(codes.length, 130);
    assert.equal(codes.filter((c) => c.name.startsWith("Fixed ") && c.status === "paused").length, 7);
  });

  it("exports and prints analytics as the API answers them", async () => {
    const { key } = await personalKey();
    const { api, unwrap } = client(key);
    await unwrap(
      api.POST("/qrcodes/batch", {
        body: {
          qrcodes: [
            { name: "=formula", url: "https://example.com/s1" },
            { name: "Plain", url: "https://example.com/s2" },
          ],
        },
      }),
    );
    const dyn = (
      await unwrap(
        api.POST("/dynqrcodes/batch", {
          body: {
            dynqrcodes: [
              { name: "Scanned", destination_url: "https://example.com/d1" },
              { name: "Quiet", destination_url: "https://example.com/d2" },
            ],
          },
        }),
      )
    ).created;
    const scanned = dyn[0].code;
    for (const ua of [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36",
    ])
      for (let i = 0; i < 2; i++)
        assert.equal(
          (await http("GET", `/q/${scanned}`, { headers: { "user-agent": ua, "cf-ipcountry": "de" } })).status,
          302,
        );
    const row = await db.dynamicCode.findFirstOrThrow({ where: { code: scanned } });
    assert.equal((await scansOf(row.id, 4)).length, 4);

    const out = path.join(dir, "static.csv");
    assert.equal((await cli(["export", "static", "--out", out], key)).code, 0);
    assert.equal(readFileSync(out, "utf8"), await unwrap(api.GET("/qrcodes/export", { parseAs: "text" })));
    assert.match(readFileSync(out, "utf8"), /'=formula/);
    const dynamic = await cli(["export", "dynamic"], key);
    assert.equal(dynamic.stdout, await unwrap(api.GET("/dynqrcodes/export", { parseAs: "text" })));
    const scans = await cli(["export", "scans", scanned], key);
    assert.equal(
      scans.stdout,
      await unwrap(
        api.GET("/dynqrcodes/{code}/analytics/export", { params: { path: { code: scanned } }, parseAs: "text" }),
      ),
    );
    assert.equal(scans.stdout.trim().split("\n").length, 5);

    const summary = await unwrap(api.GET("/dynqrcodes/analytics", {}));
    assert.deepEqual([summary.total_scans, summary.unique_scans], [4, 2]);
    assert.deepEqual(JSON.parse((await cli(["analytics", "--json"], key)).stdout), summary);
    const table = (await cli(["analytics"], key)).stdout;
    for (const c of summary.codes)
      assert.match(table, new RegExp(`^${c.code}\\s+${c.name}\\s+${c.total_scans}\\s+${c.unique_scans}$`, "m"));
    assert.match(table, /^TOTAL\s+4\s+2$/m);

    const perCode = await unwrap(
      api.GET("/dynqrcodes/{code}/analytics", {
        params: { path: { code: scanned }, query: { from: "2026-01-01", to: new Date().toISOString().slice(0, 10) } },
      }),
    );
    const text = (await cli(["analytics", scanned, "--from", "2026-01-01", "--to", perCode.to], key)).stdout;
    assert.match(text, new RegExp(`Total scans: ${perCode.total_scans}\\nUnique scans: ${perCode.unique_scans}\\n`));
    assert.match(text, /^DE\s+4$/m);
    const today = perCode.daily!.at(-1)!;
    assert.match(text, new RegExp(`^${today.date}\\s+${today.scans}\\s+${today.unique_scans}$`, "m"));
    assert.deepEqual(
      JSON.parse((await cli(["analytics", scanned, "--from", "2026-01-01", "--to", perCode.to, "--json"], key)).stdout),
      perCode,
    );
  });

  it("images <dir>: unpacks the API's ZIPs of both kinds, or of some ids, and every file decodes to its record", async () => {
    const { key } = await personalKey();
    const { api, unwrap } = client(key);
    const statics = (
      await unwrap(
        api.POST("/qrcodes/batch", {
          body: {
            qrcodes: [
              { name: "Lunch menu", url: "https://example.com/lunch" },
              { name: "Wine", url: "https://example.com/wine" },
            ],
          },
        }),
      )
    ).created;
    const dynamics = (
      await unwrap(
        api.POST("/dynqrcodes/batch", {
          body: { dynqrcodes: [{ name: "Poster", destination_url: "https://example.com/poster" }] },
        }),
      )
    ).created;
    const expected = new Map<string, string>([
      [`${statics[0].qr_id}-lunch-menu.png`, statics[0].url!],
      [`${statics[1].qr_id}-wine.png`, statics[1].url!],
      [`${dynamics[0].code}-poster.png`, dynamics[0].short_url],
    ]);

    const all = path.join(dir, "images-all");
    const run = await cli(["images", all, "--format", "png", "--size", "160"], key);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `2 static images written to ${all}\n1 dynamic image written to ${all}\n`);
    assert.deepEqual(
      readdirSync(all).sort(),
      [...expected.keys()].sort(),
      "the images and nothing else (no archive left behind)",
    );
    for (const [name, text] of expected) {
      const png = readFileSync(path.join(all, name));
      assert.deepEqual(pngSize(png), { width: 160, height: 160 });
      assert.equal(decodePng(png), text, name);
    }

    const some = path.join(dir, "images-some");
    assert.equal(
      (await cli(["images", some, "--kind", "static", "--ids", statics[1].qr_id, "--format", "svg"], key)).code,
      0,
    );
    assert.deepEqual(readdirSync(some), [`${statics[1].qr_id}-wine.svg`]);
    assert.match(
      readFileSync(path.join(some, `${statics[1].qr_id}-wine.svg`), "utf8"),
      /^<svg [^>]*width="512" height="512"/,
    );

    // Another library's code: the API's 404, and nothing written.
    const stranger = await personalKey();
    const refused = await cli(
      ["images", path.join(dir, "images-refused"), "--kind", "dynamic", "--ids", dynamics[0].code],
      stranger.key,
    );
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`^qr-records: Dynamic QR code not found: ${dynamics[0].code} \\(HTTP 404`));
    const bad = await cli(["images", path.join(dir, "images-bad"), "--format", "gif"], key);
    assert.deepEqual([bad.code, /format must be svg, png or pdf \(HTTP 400/.test(bad.stderr)], [1, true], bad.stderr);
    const usage = await cli(["images", dir, "--ids", "x"], key);
    assert.deepEqual([usage.code, /--ids needs --kind static or dynamic/.test(usage.stderr)], [1, true]);
  });
});
