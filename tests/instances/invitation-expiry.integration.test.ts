// An invitation lives 7 days (contract: "Accounts for real"), read from the server's clock
// (server/platform/clock.ts): a server started 8 days ahead (CLOCK_OFFSET_SECONDS) on the same database
// refuses a link that the main server, in the present, still accepts. No sleeping.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort, startServer, type RunningServer } from "../../scripts/harness";
import { BASE_URL, logIn, makeTeam, makeUser } from "../helpers";
import { linkIn, waitForMail } from "../mail-sink";

describe("invitation expiry", () => {
  let ahead: RunningServer;
  before(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    ahead = await startServer({ CLOCK_OFFSET_SECONDS: String(8 * 86_400), APP_URL: base, NEXTAUTH_URL: base }, port);
  });
  after(() => ahead.stop());

  it("8 days later the link is refused (page and Accept); today it still works", async () => {
    const team = await makeTeam();
    const invitee = await makeUser("free");
    await (
      await logIn(team.admin.email)
    )("invitations.send", { email: invitee.email, role: "writer" });
    const token = linkIn(await waitForMail(invitee.email, /Join the team/), "/invite/").pathname.slice(
      "/invite/".length,
    );

    const later = await logIn(invitee.email, undefined, ahead.base);
    await assert.rejects(
      later("invitations.accept", { token }),
      /This invitation has expired \(links last 7 days\): ask the team's admin for a new one/,
    );
    assert.match(await (await fetch(`${ahead.base}/invite/${token}`)).text(), /This invitation has expired/);
    // The admins' list, 8 days later, no longer shows it as pending.
    assert.deepEqual(await (await logIn(team.admin.email, undefined, ahead.base)).query("invitations.pending"), []);

    const today = await logIn(invitee.email, undefined, BASE_URL);
    assert.deepEqual(await today("invitations.accept", { token }), {
      teamName: `Team ${team.admin.email}`,
      role: "writer",
    });
  });
});
