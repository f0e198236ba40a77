// A password-protected code (contract: "Dynamic codes that do more"): GET /q/<code> answers a
// form that posts to /q/<code>; the right password is the redirect (and the scan), a wrong
// one 401 with the form again. Wrong tries are limited per code and client address (10 in
// 15 minutes, refilled steadily like the log-in limits), in Redis when configured, so every
// instance counts the same tries. The scrypt check runs on libuv's thread pool
// (crypto.scrypt), so a guess does not hold up other redirects.
import { verifyPassword } from "../accounts/passwords";
import { take, type Rule } from "../rate-limit";
import { HTML_HEADERS, shortLinkPage } from "../scan/page";

export const passwordRule: Rule = { capacity: 10, refillPerSecond: 10 / 900, dailyQuota: 0 };

export type PasswordCheck = { ok: true } | { ok: false; retryAfter?: number };

/** Right, wrong, or refused until `retryAfter` seconds have passed (only wrong tries count). */
export async function checkPassword(
  /** The code, or `<domain>/<code>` (linkKey): tries are counted per short link. */
  link: string,
  address: string,
  password: string,
  hash: string,
): Promise<PasswordCheck> {
  const key = `qpw:${link}:${address}`;
  // Each try takes a token before the (slow) check, so that a burst of concurrent guesses cannot
  // pass the limit; a right password gives its token back: only wrong tries count.
  const allowance = await take(key, passwordRule, 1);
  if (!allowance.allowed) return { ok: false, retryAfter: allowance.retryAfter };
  if (!(await verifyPassword(password, hash))) return { ok: false };
  await take(key, passwordRule, -1);
  return { ok: true };
}

/** `link`: the code, or `<domain>/<code>` on a custom domain (the form posts to where it was asked: `/<code>` there). */
const form = (link: string, wrong: boolean) =>
  `${wrong ? '<p class="alert" role="alert">Wrong password</p>' : ""}<form method="post" action="${link.includes("/") ? link.slice(link.indexOf("/")) : `/q/${link}`}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Continue</button></form>`;

/** The form (200), or after a wrong password the form with `Wrong password` (401). */
export const passwordFormPage = (link: string, wrong: boolean) =>
  shortLinkPage("This QR code is protected", "Enter its password to continue.", form(link, wrong));

type Answer = { status: number; headers: Record<string, string>; body: string | null };

/** The form's answers: 200 asked, 401 wrong, 429 too many wrong tries (with when to come back). */
export function answerPasswordForm(link: string, method: string, check: PasswordCheck | null): Answer {
  if (check && !check.ok && check.retryAfter !== undefined) {
    const minutes = Math.ceil(check.retryAfter / 60);
    const at = new Date(Date.now() + check.retryAfter * 1000).toISOString().slice(11, 16);
    const text = `Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? "" : "s"} (at ${at} UTC).`;
    return {
      status: 429,
      headers: { ...HTML_HEADERS, "Retry-After": String(check.retryAfter) },
      body: method === "HEAD" ? null : shortLinkPage("Too many tries", text),
    };
  }
  const wrong = check !== null;
  return {
    status: wrong ? 401 : 200,
    headers: { ...HTML_HEADERS },
    body: method === "HEAD" ? null : passwordFormPage(link, wrong),
  };
}
