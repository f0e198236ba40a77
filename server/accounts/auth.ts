// next-auth: credentials log-in, JWT sessions.
import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import { encode } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { cache } from "react";
import { clientAddress, countryHeaderOf } from "../platform/client-address";
import { AUTHENTICATION_CODE_REQUIRED } from "./accountWords";
import { logIn } from "./logins";
import { liveSessionVersion } from "./sessions";
import { LOGIN_BRAKE_MS, loginRules, take } from "../rate-limit";
import { env } from "../platform/env";
import { logError, logWarn } from "../platform/log";
import { countRateLimited } from "../platform/metrics";
import { secret } from "../platform/secrets";

const SESSION_MAX_AGE = 7 * 24 * 3600;

/**
 * Thrown by the jwt callback for a session that was ended: next-auth then treats it as none and
 * clears its cookie. Known by its name, a string: Next's build renames classes.
 */
const SESSION_ENDED = "SessionEnded";
class SessionEnded extends Error {
  name = SESSION_ENDED;
}

export const authOptions: NextAuthOptions = {
  // Read when a request needs it, not when the module loads (`next build` loads it too).
  get secret() {
    return secret("NEXTAUTH_SECRET");
  },
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE },
  // Cookies are HttpOnly and SameSite=Lax (next-auth's defaults), and Secure (with the
  // __Secure-/__Host- names) whenever the app's public address is https.
  get useSecureCookies() {
    return env.appUrl.startsWith("https:");
  },
  pages: { signIn: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
        // For an account with two-factor authentication: its app's code or a recovery code.
        code: { label: "Authentication code", type: "text" },
      },
      async authorize(credentials, req) {
        const email = String(credentials?.email ?? "")
          .trim()
          .toLowerCase();
        const password = String(credentials?.password ?? "");
        const headers = new Headers(req.headers as Record<string, string>);
        const address = clientAddress(headers);
        // Failed log-ins (a wrong password or authentication code) lock the pair of account and
        // client address, and the address; the account's brake only delays (server/rate-limit/index.ts,
        // loginRules), so failures from elsewhere never lock its owner out. Ask first, and spend
        // a token of each only when the log-in fails.
        const locks = [
          { key: `login:pair:${address}|${email}`, rule: loginRules.pair },
          { key: `login:address:${address}`, rule: loginRules.address },
        ];
        const brake = { key: `login:account:${email}`, rule: loginRules.brake };
        const [pair, byAddress, braked] = await Promise.all([...locks, brake].map((l) => take(l.key, l.rule, 0)));
        const wait = Math.max(pair.retryAfter, byAddress.retryAfter);
        if (wait > 0) {
          countRateLimited("login");
          throw new Error(`Too many failed log-ins: try again in ${Math.ceil(wait / 60)} minute(s)`);
        }
        if (!braked.allowed) await new Promise((resolve) => setTimeout(resolve, LOGIN_BRAKE_MS));
        const outcome = await logIn(email, password, String(credentials?.code ?? ""), {
          userAgent: headers.get("user-agent") ?? "",
          address,
          countryHeader: countryHeaderOf(headers),
        });
        if (outcome.ok) return outcome.user;
        // The login form shows the code field on this exact message.
        if (outcome.reason === "code_required") throw new Error(AUTHENTICATION_CODE_REQUIRED);
        await Promise.all([...locks, brake].map((l) => take(l.key, l.rule)));
        if (outcome.reason === "code") throw new Error("Wrong authentication code");
        return null;
      },
    }),
  ],
  callbacks: {
    // At log-in the token takes the account's session version; every later read compares it
    // with the database's (server/accounts/sessions.ts), so a raised version ends the session.
    async jwt({ token, user }) {
      if (user) return { ...token, uid: user.id, sv: (user as { sessionVersion?: number }).sessionVersion };
      const live = typeof token.uid === "string" ? await liveSessionVersion(token.uid) : null;
      if (live === null || token.sv !== live) throw new SessionEnded();
      return token;
    },
    session({ session, token }) {
      return { ...session, userId: token.uid as string };
    },
  },
  // An ended session is an expected answer, not an error worth a log line.
  logger: {
    error(code, metadata) {
      if ((metadata as { name?: string } | undefined)?.name === SESSION_ENDED) return;
      logError(`next-auth.${code}`, {}, metadata);
    },
    warn(code) {
      logWarn(`next-auth.${code}`, {});
    },
    debug() {},
  },
};

/**
 * A fresh session cookie for the account at its current session version: the browser that
 * changed the password stays logged in while every other session of the account ends.
 */
export async function renewedSessionCookie(user: {
  id: string;
  email: string;
  name: string;
  sessionVersion: number;
}): Promise<string> {
  const secure = authOptions.useSecureCookies;
  const name = `${secure ? "__Secure-" : ""}next-auth.session-token`;
  const token = await encode({
    token: { name: user.name, email: user.email, sub: user.id, uid: user.id, sv: user.sessionVersion },
    secret: secret("NEXTAUTH_SECRET"),
    maxAge: SESSION_MAX_AGE,
  });
  return `${name}=${token}; Path=/; Max-Age=${SESSION_MAX_AGE}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * The logged-in account's id in a server component or route handler, or null. Once per page
 * render (React's cache: the layout, the page and its prefetches ask the same), so a page
 * load reads the session version once.
 */
export const sessionUserId = cache(async (): Promise<string | null> => {
  const session = (await getServerSession(authOptions)) as { userId?: string } | null;
  return session?.userId ?? null;
});
