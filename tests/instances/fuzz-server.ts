// The server and the libraries the fuzz tests send to (fuzz.integration.test.ts and
// fuzz-images.integration.test.ts): a server of their own with limiter keys of their own, so that
// their invalid keys do not spend the other files' per-address allowance; 12 personal libraries
// and a team's, each with a static and a dynamic code.
import { after, before } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { createDynamicCodes } from "../../server/library/dynamicCodes";
import { createStaticCodes } from "../../server/library/staticCodes";
import { makeTeam, personalKey } from "../helpers";

export const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
export const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
export const ACCOUNTS = 12;

export type Caller = { key: string | undefined; ids: string[]; codes: string[]; userId?: string };

/** For the calling describe block: the server (its Redis keys under `prefix`) and the callers, set up before its tests. */
export function withFuzzServer(prefix: string) {
  const fuzz = { server: {} as RunningServer, callers: [] as Caller[], userIds: [] as string[], teamId: "" };
  const { callers, userIds } = fuzz;
  before(async () => {
    fuzz.server = await startServer({ REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX ?? "qr:"}${prefix}` });
    for (let i = 0; i < ACCOUNTS; i++) {
      const { user, key } = await personalKey();
      const actor = { userId: user.id, library: { kind: "personal" as const, userId: user.id } };
      const statics = await createStaticCodes(actor, [{ url: "https://example.com/s", name: "S" }]);
      const dynamics = await createDynamicCodes(actor, [{ destination_url: "https://example.com/d", name: "D" }]);
      callers.push({ key, ids: statics.map((s) => s.qr_id), codes: dynamics.map((d) => d.code), userId: user.id });
      userIds.push(user.id);
    }
    const team = await makeTeam();
    const actor = {
      userId: team.admin.id,
      library: { kind: "team" as const, teamId: team.id },
      role: "admin" as const,
    };
    callers.push({
      key: team.adminKey,
      ids: (await createStaticCodes(actor, [{ url: "https://example.com/t", name: "T" }])).map((s) => s.qr_id),
      codes: (await createDynamicCodes(actor, [{ destination_url: "https://example.com/t", name: "T" }])).map(
        (d) => d.code,
      ),
    });
    fuzz.teamId = team.id;
  });
  after(() => fuzz.server.stop());
  return fuzz;
}
