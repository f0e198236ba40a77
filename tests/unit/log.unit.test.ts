// The never-logged list (contract: "Operations"): a field named for a key, password, cookie,
// token, secret or client address is censored wherever it turns up, top level or one down.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { makeLogger } from "../../server/platform/log";
import { isLoopbackClient } from "../../server/http/ops";

function capture() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { logger: makeLogger(stream as never, "debug"), text: () => text };
}

describe("logs", () => {
  it("censors every field of the redaction list", () => {
    const { logger, text } = capture();
    const secrets = {
      key: "qrp_0123456789abcdef0123456789abcdef01234567",
      password: "correct horse battery staple",
      cookie: "next-auth.session-token=eyJhbGciOi.session",
      address: "203.0.113.77",
      secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==",
    };
    logger.info({
      event: "top",
      ...secrets,
      "x-api-key": "qrb_headerkey0000000000",
      "x-forwarded-for": "198.51.100.1",
      authorization: "Bearer tok-en",
    });
    logger.error({
      event: "nested",
      headers: { cookie: secrets.cookie, authorization: "Bearer tok-en", "x-api-key": "qrb_headerkey0000000000" },
      user: { password: secrets.password, ip: "198.51.100.2" },
      webhook: { secret: secrets.secret },
    });
    logger.debug({ event: "kept", route: "/v1/dynqrcodes/{code}", status: 200 });
    const lines = text()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(lines.length, 3);
    for (const value of [
      ...Object.values(secrets),
      "qrb_headerkey0000000000",
      "198.51.100.1",
      "198.51.100.2",
      "tok-en",
    ])
      assert.ok(!text().includes(value), `${value} was logged`);
    assert.equal(lines[0].key, "[redacted]");
    assert.deepEqual(lines[2], {
      ...lines[2],
      event: "kept",
      route: "/v1/dynqrcodes/{code}",
      status: 200,
      level: "debug",
    });
  });

  it("metrics' loopback rule is not fooled by a forwarded address", () => {
    assert.equal(isLoopbackClient("127.0.0.1", null), true);
    assert.equal(isLoopbackClient("::ffff:127.0.0.1", null), true);
    assert.equal(isLoopbackClient("203.0.113.5", null), false);
    // Behind a proxy on this machine: the proxy appends the real client after a forged entry.
    assert.equal(isLoopbackClient("127.0.0.1", "127.0.0.1, 203.0.113.5"), false);
    assert.equal(isLoopbackClient("127.0.0.1", "203.0.113.5"), false);
    assert.equal(isLoopbackClient("203.0.113.5", "127.0.0.1"), false);
    assert.equal(isLoopbackClient("127.0.0.1", "127.0.0.1"), true);
  });
});
