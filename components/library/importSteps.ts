// What the pages' two imports share (CsvImport: this app's CSV; ServiceImport: another
// service's export): the file's key, the figures as shown, and a batch sent until it is
// answered when one from before a reload is still running.
import { TRPCClientError } from "@trpc/client";

/** A batch still running from before a reload is a conflict for up to its claim's minute: waited for this long at most. */
const CONFLICT_WAIT_MS = 90_000;

export const count = (n: number) => n.toLocaleString("en-US");
export const progressText = (done: number, total: number) =>
  `${count(done)} of ${count(total)} rows (${Math.floor((done / total) * 100)} %)`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One batch; a batch still running from before a reload (CONFLICT) is waited for and sent again. */
export async function sendBatch<T>(send: () => Promise<T>): Promise<T> {
  const giveUp = Date.now() + CONFLICT_WAIT_MS;
  for (;;) {
    try {
      return await send();
    } catch (error) {
      const conflict =
        error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === "CONFLICT";
      if (!conflict || Date.now() > giveUp) throw error;
      await sleep(1000);
    }
  }
}
