// The figure of docs/BENCHMARKS.md "Import through the command line": `qr-records import` of
// 10,000 rows (static codes) against the production server on a fresh embedded database, with
// a personal and with a business key. Run from the repository root after a build:
//   npx tsx clients/typescript/scripts/bench-import.ts [rows]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freshDatabase, startServer } from "../../../scripts/harness";

const rows = Number(process.argv[2] ?? 10_000);
const db = await freshDatabase("bench-import");
process.env.DATABASE_URL = db.url; // the domain functions below make the accounts and keys in it
const { createUser } = await import("../../../server/accounts/users");
const { generateKey } = await import("../../../server/keys/apiKeys");
const { createTeam, generateBusinessKey } = await import("../../../server/teams/teams");
const server = await startServer({ DATABASE_URL: db.url, MAIL_OUTBOX: "1" });
const dir = mkdtempSync(path.join(tmpdir(), "qr-bench-import-"));

async function importWith(scope: "personal" | "business") {
  const user = await createUser(
    { email: `bench-${scope}-${Date.now()}@bench.example`, password: "bench-password-1", name: "Bench" },
    scope === "personal" ? "pro" : "business",
  );
  const key =
    scope === "personal"
      ? (await generateKey(user.id, "personal")).key
      : (await createTeam(user.id, "Bench"), (await generateBusinessKey(user.id)).key);
  const file = path.join(dir, `${scope}.csv`);
  writeFileSync(
    file,
    ["name,url", ...Array.from({ length: rows }, (_, i) => `Row ${i + 1},https://example.com/${scope}/${i + 1}`)].join(
      "\n",
    ) + "\n",
  );
  const started = performance.now();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ["clients/typescript/bin/qr-records.mjs", "import", file], {
      env: { ...process.env, QR_RECORDS_API_KEY: key, QR_RECORDS_URL: server.base },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`import exited with ${code}: ${out}`))));
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${scope} key: ${rows} rows in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds)} rows/s (${output.trim()})`,
  );
}

try {
  console.log(
    `load average before: ${(await import("node:os"))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  await importWith("personal");
  await importWith("business");
  console.log(
    `load average after: ${(await import("node:os"))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await server.stop();
  await db.cleanup();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
