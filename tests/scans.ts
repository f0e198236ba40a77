// Scans are written in batches, a moment after their redirects: wait until `count` are stored.
import { db } from "../server/platform/db";

export async function scansOf(id: string, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = await db.scanEvent.findMany({ where: { dynamicCodeId: id }, orderBy: { id: "asc" } });
    if (rows.length >= count || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
}
