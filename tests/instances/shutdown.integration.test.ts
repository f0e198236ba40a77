// SIGTERM in the middle of redirect traffic: every redirect that was answered is recorded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { http, personalKey, until } from "../helpers";
import { startServer } from "../../scripts/harness";

describe("graceful shutdown", () => {
  it("scans recorded equal redirects answered across a SIGTERM", async (t) => {
    const { key } = await personalKey();
    const created = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "https://example.com/s", name: "Shutdown" },
    });
    const code = (created.body as { created: { code: string }[] }).created[0].code;
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code } });

    // A second server on the same database, ours to stop.
    const server = await startServer();
    let answered = 0;
    let stop = false;
    const ua =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
    const worker = async () => {
      while (!stop) {
        try {
          const r = await fetch(`${server.base}/q/${code}`, { redirect: "manual", headers: { "user-agent": ua } });
          if (r.status === 302) answered++;
        } catch {
          return; // the server has gone
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await until(() => answered > 200, "traffic to flow");
    const exitCode = await server.stop();
    stop = true;
    await Promise.all(workers);
    assert.equal(exitCode, 0);
    const recorded = await db.scanEvent.count({ where: { dynamicCodeId: id } });
    t.diagnostic(`redirects answered ${answered}, scans recorded ${recorded}`);
    assert.equal(recorded, answered);
  });
});
