// What the command line's tests share: the command run as `npx qr-records` runs it against the
// run's server, a typed client, and a scratch folder removed at the end.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after } from "node:test";
import { createClient } from "../clients/typescript/src";
import { BASE_URL } from "./helpers";

export const dir = mkdtempSync(path.join(tmpdir(), "qr-cli-"));
after(() => rmSync(dir, { recursive: true, force: true }));

export type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs the command as `npx qr-records` does; `watch` sees its stderr as it comes and may kill it. */
export function cli(args: string[], key: string, watch?: (stderr: string, kill: () => void) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["clients/typescript/bin/qr-records.mjs", ...args], {
      env: { ...process.env, QR_RECORDS_API_KEY: key, QR_RECORDS_URL: BASE_URL },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
      watch?.(stderr, () => child.kill("SIGKILL"));
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export const client = (apiKey: string) => createClient({ baseUrl: BASE_URL, apiKey });
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
