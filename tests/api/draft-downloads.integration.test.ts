// A code whose short link answers 404 says so in its image's file name (issue 39, point 6): a
// team draft's download from the library is `qr-<code>-draft-not-live.png` (and .pdf) until an
// admin approves it, a paused code's `-paused-not-live`; a live code's is `qr-<code>.png`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { http, logIn, makeTeam } from "../helpers";

const filenameOf = (res: Response | { headers: Headers }) =>
  /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1];
const shortLinkStatus = async (code: string) => (await http("GET", `/q/${code}`)).status;

describe("downloads of codes that are not live", () => {
  it("a team draft's PNG and PDF are named draft-not-live until approved; a paused code's paused-not-live", async () => {
    const team = await makeTeam();
    const created = await http("POST", "/v1/dynqrcodes", {
      key: team.adminKey,
      json: { name: "Spring menu", destination_url: "https://example.com/spring" },
    });
    const { code, status } = (created.body as { created: { code: string; status: string }[] }).created[0];
    assert.equal(status, "draft");
    assert.equal(await shortLinkStatus(code), 404);
    const admin = await logIn(team.admin.email);
    const download = (format: string) => admin.get(`/library/qr/dynamic/${code}?format=${format}&download=1`);

    const png = await download("png");
    assert.equal(png.status, 200);
    assert.equal(png.headers.get("content-disposition"), `attachment; filename="qr-${code}-draft-not-live.png"`);
    assert.equal(filenameOf(await download("pdf")), `qr-${code}-draft-not-live.pdf`);
    // The API's image of the same record says it too.
    assert.equal(
      filenameOf(await http("GET", `/v1/dynqrcodes/${code}/image?format=svg`, { key: team.adminKey })),
      `qr-${code}-draft-not-live.svg`,
    );

    await admin("team.approve", { kind: "dynamic", id: code });
    assert.equal(await shortLinkStatus(code), 302);
    assert.equal(filenameOf(await download("png")), `qr-${code}.png`);

    assert.equal(
      (await http("PATCH", `/v1/dynqrcodes/${code}`, { key: team.adminKey, json: { status: "paused" } })).status,
      200,
    );
    assert.equal(await shortLinkStatus(code), 404);
    assert.equal(filenameOf(await download("png")), `qr-${code}-paused-not-live.png`);
  });
});
