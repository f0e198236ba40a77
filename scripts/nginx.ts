// Debian's nginx in the foreground with deploy/nginx/qr-records.conf as documented: only the
// upstreams' ports and the listening port rewritten. The cluster tests and the cluster bench
// run the recipe through it.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { freePort } from "./harness";

export const NGINX = "/usr/sbin/nginx";

export type Nginx = { base: string; errors: () => string; stop: () => Promise<void> };

/** nginx with the deploy/ site in front of the instances on `upstreams` (three, as the recipe names). */
export async function startNginx(upstreams: number[]): Promise<Nginx> {
  const dir = mkdtempSync(path.join(tmpdir(), "qr-nginx-"));
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(dir, sub));
  const port = await freePort();
  let site = readFileSync("deploy/nginx/qr-records.conf", "utf8");
  upstreams.forEach((p, i) => (site = site.replace(`127.0.0.1:${3001 + i} `, `127.0.0.1:${p} `)));
  assert.ok(!/127\.0\.0\.1:300[123] /.test(site), "every upstream rewritten");
  site = site.replace("listen 80;", `listen 127.0.0.1:${port};`);
  writeFileSync(path.join(dir, "site.conf"), site);
  writeFileSync(
    path.join(dir, "nginx.conf"),
    `${userInfo().uid === 0 ? "user root;\n" : ""}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`,
  );
  const child: ChildProcess = spawn(
    NGINX,
    ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log")],
    { stdio: "ignore" },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${readFileSync(path.join(dir, "error.log"), "utf8")}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      if (i > 100) throw new Error("nginx did not start");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    errors: () => (existsSync(path.join(dir, "error.log")) ? readFileSync(path.join(dir, "error.log"), "utf8") : ""),
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      if (child.exitCode === null) child.kill("SIGQUIT");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
