// The README's run command: migrate the database DATABASE_URL names (embedded SQLite by
// default), seed the demo accounts when the embedded database is new, build, and serve.
//   tsx scripts/serve.ts [--build] [--dev] [--port N]
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { backendOf, sqliteFileOf } from "../server/database-url";
import { env } from "../server/env";
import { keepNewFilesPrivate } from "../server/private-files";

// The database, data/secrets.json and the outbox are created by this script's children, which
// inherit the umask (folders 0700, files 0600).
keepNewFilesPrivate();

const args = process.argv.slice(2);
const port = args.includes("--port") ? args[args.indexOf("--port") + 1] : (process.env.PORT ?? "3000");
const url = env.databaseUrl;
const isNewEmbedded = backendOf(url) === "sqlite" && !existsSync(sqliteFileOf(url));

const run = (script: string, extra: string[] = []) => {
  const result = spawnSync(process.execPath, [script, ...extra], { stdio: "inherit", env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
const tsx = "node_modules/tsx/dist/cli.mjs";
// Separate processes: each closes its database connections when it exits.
run(tsx, ["prisma/scripts/migrate.ts", "deploy"]);
if (isNewEmbedded) run(tsx, ["scripts/seed.ts"]);
const dev = args.includes("--dev");
if (args.includes("--build") && !dev) run("node_modules/next/dist/bin/next", ["build"]);

console.log(`\nServing on http://localhost:${port}`);
if (isNewEmbedded) console.log("Log in as pro@example.com / demo-password (see the table above for the other demo accounts).\n");
// server/http-server.ts answers /q/ itself, hands the rest to Next, and on SIGTERM/SIGINT
// stops listening, writes the buffered scans, then exits.
const child = spawn(process.execPath, ["--import", "tsx", "server/http-server.ts", ...(dev ? ["--dev"] : []), "--port", port], {
  stdio: "inherit",
  // The README's demo command (--build) writes mails to data/outbox/ when no SMTP server is
  // set (the log names each file); `npm start` alone is a deployment, which needs SMTP_URL.
  env: { ...process.env, PORT: port, NODE_ENV: dev ? "development" : "production", ...(args.includes("--build") ? { MAIL_OUTBOX: process.env.MAIL_OUTBOX ?? "1" } : {}) },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
