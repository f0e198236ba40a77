// The time the expiry rules read (mailed tokens, invitations, the activity log's retention,
// dynamic codes' expires_at) and the analytics' "today" (the default range, the page's presets):
// the system clock plus CLOCK_OFFSET_SECONDS, so that a test can start a server an hour or a
// week ahead of another on the same database instead of sleeping. Everything else reads
// Date.now() as before.
import { env } from "./env";

export const now = (): Date => new Date(Date.now() + env.clockOffsetSeconds * 1000);

/** `seconds` after `from` (now() unless given: pass the row's createdAt so its lifetime is exact). */
export const after = (seconds: number, from: Date = now()): Date => new Date(from.getTime() + seconds * 1000);

/** now() in epoch milliseconds, without a Date (the short link's expiry check). */
export const nowMs = (): number => Date.now() + env.clockOffsetSeconds * 1000;
