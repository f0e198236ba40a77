// Who scanned, as a scan stores it: the agent's device, OS and browser, whether it is a bot,
// and a keyed hash of the visitor. Also read by the rules (a target by device or OS) and by
// the log-in history (the device of a session).
import { createHmac } from "node:crypto";
import { isbot } from "isbot";
import UAParser from "ua-parser-js";
import { memoize } from "../platform/memoize";
import { secret } from "../platform/secrets";

const DESKTOP_OS = /^(Windows|Mac OS|Linux|Ubuntu|Debian|Fedora|Chromium OS|Chrome OS)/;

type Agent = { device: string; os: string; browser: string };
// Parsing costs about 20 µs and the bot check 2 µs; both, the visitor hashes and the countries
// (server/scan/country.ts) are remembered for the last few thousand agents and visitors.

/** Device class, OS and browser names from a user agent. */
export const describeAgent = memoize("agent", (userAgent): Agent => {
  const ua = new UAParser(userAgent).getResult();
  const type = ua.device.type;
  const os = ua.os.name ?? "Unknown";
  const device =
    type === "mobile" || type === "tablet" ? type : type ? "other" : DESKTOP_OS.test(os) ? "desktop" : "other";
  return { device, os, browser: ua.browser.name ?? "Unknown" };
});

/** Bots and link-preview agents are redirected but not counted; so is an empty agent. */
export const isBotAgent = memoize("isBot", (userAgent) => userAgent === "" || isbot(userAgent));

const hashOfVisitor = memoize("visitorHash", (visitor) =>
  createHmac("sha256", secret("VISITOR_HASH_SECRET")).update(visitor).digest("hex").slice(0, 32),
);

/** Keyed hash of client address and user agent: the raw address is never stored (nor kept here
 * beyond the last few thousand visitors, whose repeated scans skip the HMAC). */
export const visitorHash = (address: string, userAgent: string): string => hashOfVisitor(`${address}\n${userAgent}`);
