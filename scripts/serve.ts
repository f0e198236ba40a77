// The README's run command: migrate the database DATABASE_URL names (embedded SQLite by
// default), seed the demo accounts when the embedded database is new, build, then serve, in
// this process: under a supervisor `npm start` is npm, its shell and this one Node process
// with its esbuild service, as the systemd unit's (the `tsx` command, a Node process of its
// own that starts another, and a parent that spawned the server cost ~200 MB more per instance).
// The steps before serving are processes of their own, which close their connections as they
// end (a SQLite migration holds the file exclusively until then).
//   node --import tsx scripts/serve.ts [--build] [--dev] [--port N] [--host H]
import "../server/platform/runtime"; // first: refuses an older Node before anything loads
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const args = process.argv.slice(2);
const dev = args.includes("--dev");
const port = args.includes("--port") ? args[args.indexOf("--port") + 1] : (process.env.PORT ?? "3000");
// The steps run with the environment as given (the seed refuses NODE_ENV=production).
const given = { ...process.env };
// Next's build would otherwise announce, and send, anonymous telemetry: the service keeps to itself unless told.
given.NEXT_TELEMETRY_DISABLED ??= "1";
// Set before server/platform/env.ts reads them, once, when first imported. The README's demo command
// (--build) writes mails to data/outbox/ when no SMTP server is set (the log names each file);
// `npm start` alone is a deployment, which needs SMTP_URL.
Object.assign(process.env, { PORT: port, NODE_ENV: dev ? "development" : "production" });
if (args.includes("--build")) process.env.MAIL_OUTBOX ??= "1";

const { backendOf, sqliteFileOf } = await import("../server/platform/database-url");
const { env } = await import("../server/platform/env");
const { keepNewFilesPrivate } = await import("../server/platform/private-files");
// The database, data/secrets.json and the outbox are created by the steps and the server,
// which inherit the umask (folders 0700, files 0600).
keepNewFilesPrivate();
const isNewEmbedded = backendOf(env.databaseUrl) === "sqlite" && !existsSync(sqliteFileOf(env.databaseUrl));

const run = (command: string[]) => {
  const result = spawnSync(process.execPath, command, { stdio: "inherit", env: given });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run(["--import", "tsx", "prisma/scripts/migrate.ts", "deploy"]);
if (isNewEmbedded) run(["--import", "tsx", "scripts/seed.ts"]);
if (args.includes("--build") && !dev) run(["node_modules/next/dist/bin/next", "build"]);

console.log(`\nServing on http://localhost:${port}`);
if (isNewEmbedded)
  console.log("Log in as pro@example.com / demo-password (see the table above for the other demo accounts).\n");
// server/http/server.ts reads --dev, --port and --host from this process's arguments, answers
// /q/ itself, hands the rest to Next, and on SIGTERM/SIGINT stops listening, writes the
// buffered scans, then exits.
await import("../server/http/server");
