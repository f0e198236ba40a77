// The driver-level write transactions of one thread share SQLite's one writer connection: two
// begun at once must take turns, not nest (two webhook lanes finishing together did).
import assert from "node:assert/strict";
import { test } from "node:test";
import { writeTransaction } from "../../server/platform/db";

const sql = (text: string) => ({ sqlite: text, postgres: text });

test("concurrent write transactions on SQLite take turns and each commits or rolls back alone", async () => {
  await writeTransaction((runEach) =>
    runEach(sql('CREATE TABLE IF NOT EXISTS "TurnProbe" ("n" INTEGER NOT NULL)'), [[]]),
  );
  const slow = (n: number, fail = false) =>
    writeTransaction(async (runEach) => {
      await runEach(sql('INSERT INTO "TurnProbe" ("n") VALUES (?)'), [[n]]);
      await new Promise((resolve) => setTimeout(resolve, 20)); // another transaction would begin here
      if (fail) throw new Error(`rolled back ${n}`);
      return n;
    });
  const outcomes = await Promise.allSettled([slow(1), slow(2, true), slow(3)]);
  assert.deepEqual(
    outcomes.map((o) => (o.status === "fulfilled" ? o.value : (o.reason as Error).message)),
    [1, "rolled back 2", 3],
  );
  const rows = (await writeTransaction((runEach) =>
    runEach(sql('SELECT "n" FROM "TurnProbe" ORDER BY "n"'), [[]]),
  )) as { n: number }[];
  assert.deepEqual(
    rows.map((r) => r.n),
    [1, 3],
  );
});
