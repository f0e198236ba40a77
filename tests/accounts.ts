// What the account tests share (tests/api/accounts-*, tests/instances/accounts*): the pages'
// tRPC calls over plain HTTP (as a click sends them, with or without a session and with any
// Origin), sign-up as the page does it, and the tokens of the mails it sent.
import { randomUUID } from "node:crypto";
import { db } from "../server/platform/db";
import { generate } from "otplib";
import { BASE_URL, logIn, makeUser } from "./helpers";
import { linkIn, waitForMail } from "./mail-sink";

export type PageReply = {
  status: number;
  body: { result?: { data: unknown }; error?: { message: string; data?: { code: string } } };
  text: string;
};

/** A mutation of the pages (`account.forgotPassword`), with the page's Origin unless `origin` says another (null: none). */
export async function mutate(
  procedure: string,
  input?: unknown,
  options: { base?: string; cookie?: string; origin?: string | null; headers?: Record<string, string> } = {},
): Promise<PageReply> {
  const base = options.base ?? BASE_URL;
  const origin = options.origin === undefined ? base : options.origin;
  const res = await fetch(`${base}/api/trpc/${procedure}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(origin ? { origin } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    body: input === undefined ? undefined : JSON.stringify(input),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as PageReply["body"], text };
}

/** The error message of a refused call (or fails when it was not refused). */
export const refusal = (reply: PageReply) => {
  if (!reply.body.error) throw new Error(`not refused: ${reply.status} ${reply.text}`);
  return reply.body.error.message;
};

/** An address nobody used yet, `+refuse-once` style tags allowed in `tag`. */
export const freshEmail = (tag = "") => `acct-${randomUUID()}${tag}@test.example`;

/** Signs up as /signup does: an unverified account, and a verification mail. */
export async function signUp(options: { email?: string; password?: string; base?: string } = {}) {
  const email = options.email ?? freshEmail();
  const password = options.password ?? `pw-${randomUUID()}`;
  const reply = await mutate("account.signup", { email, password, name: "Account Test" }, { base: options.base });
  if (reply.status !== 200) throw new Error(`sign-up failed: ${reply.status} ${reply.text}`);
  const user = await db.user.findUniqueOrThrow({ where: { email } });
  return { email, password, user };
}

/** The token of the `nth` mail to `email` whose subject matches, from its link to `pathname`. */
export async function mailedToken(email: string, subject: RegExp, pathname: string, nth = 1): Promise<string> {
  const mail = await waitForMail(email, subject, { nth });
  return linkIn(mail, pathname).searchParams.get("token")!;
}

/** The account's activity entries of `action`. */
export const entries = (userId: string, action: string) =>
  db.activityEntry.findMany({ where: { userId, action }, orderBy: { id: "asc" } });

// ---- two-factor authentication ----

export type Setup = { secret: string; uri: string; qrSvg: string };

/** A code of the secret's app, `steps` time steps (30 s) from now. */
export const codeOf = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** An account with two-factor on: its session, secret and recovery codes. */
export async function withTwoFactor() {
  const user = await makeUser("pro");
  const session = await logIn(user.email);
  const setup = (await session("twoFactor.start")) as Setup;
  const { recoveryCodes } = (await session("twoFactor.confirm", { code: await codeOf(setup.secret) })) as {
    recoveryCodes: string[];
  };
  return { user, session, secret: setup.secret, recoveryCodes };
}

/** Six digits that are no code of the secret within a step of now. */
export async function wrongCodeOf(secret: string): Promise<string> {
  const near = await Promise.all([-1, 0, 1].map((steps) => codeOf(secret, steps)));
  return ["000000", "111111", "222222", "333333"].find((c) => !near.includes(c))!;
}
