// If-Unmodified-Since's HTTP-dates (server/http/http-date.ts): the three forms RFC 9110 makes a
// recipient read, and nothing else.
import assert from "node:assert/strict";
import { it } from "node:test";
import { parseHttpDate } from "../../server/http/http-date";

const at = Date.UTC(1994, 10, 6, 8, 49, 37);

it("reads IMF-fixdate, RFC 850 and asctime as the same instant", () => {
  assert.equal(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT"), at);
  assert.equal(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT"), at);
  assert.equal(parseHttpDate("Sun Nov  6 08:49:37 1994"), at);
  assert.equal(parseHttpDate(new Date(1795392000_000).toUTCString()), 1795392000_000);
  // A two-digit year more than 50 years ahead is of the past century.
  assert.equal(parseHttpDate("Thursday, 21-Nov-30 09:30:00 GMT"), Date.UTC(2030, 10, 21, 9, 30));
});

it("refuses anything else: other zones, impossible dates, numbers, junk, a long header", () => {
  for (const text of [
    "Sun, 06 Nov 1994 08:49:37 UTC",
    "Sun, 6 Nov 1994 08:49:37 GMT",
    "Sun, 31 Feb 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:00:00 GMT",
    "784111777",
    "2026-11-21T09:30:00Z",
    "",
    `Sun, 06 Nov 1994 08:49:37 GMT${" ".repeat(10_000)}x`,
  ]) {
    assert.equal(parseHttpDate(text), null, text);
  }
});
