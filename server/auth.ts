// next-auth: credentials log-in, JWT sessions.
import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { clientAddress, countryHeaderOf } from "./client-address";
import { AUTHENTICATION_CODE_REQUIRED } from "./domain/login-messages";
import { logIn } from "./domain/logins";
import { loginRules, take } from "./rate-limit";
import { env } from "./env";
import { secret } from "./secrets";

export const authOptions: NextAuthOptions = {
  // Read when a request needs it, not when the module loads (`next build` loads it too).
  get secret() {
    return secret("NEXTAUTH_SECRET");
  },
  session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
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
        const email = String(credentials?.email ?? "").trim().toLowerCase();
        const password = String(credentials?.password ?? "");
        const headers = new Headers(req.headers as Record<string, string>);
        const address = clientAddress(headers);
        // Failed log-ins (a wrong password or authentication code) are limited per account and
        // per client address (server/rate-limit.ts): ask both limits first, and spend a token of
        // each only when the log-in fails.
        const limits = [
          { key: `login:account:${email}`, rule: loginRules.account },
          { key: `login:address:${address}`, rule: loginRules.address },
        ];
        const asked = await Promise.all(limits.map((l) => take(l.key, l.rule, 0)));
        const wait = Math.max(...asked.map((d) => d.retryAfter));
        if (wait > 0) throw new Error(`Too many failed log-ins: try again in ${Math.ceil(wait / 60)} minute(s)`);
        const outcome = await logIn(email, password, String(credentials?.code ?? ""), {
          userAgent: headers.get("user-agent") ?? "",
          address,
          countryHeader: countryHeaderOf(headers),
        });
        if (outcome.ok) return outcome.user;
        // The login form shows the code field on this exact message.
        if (outcome.reason === "code_required") throw new Error(AUTHENTICATION_CODE_REQUIRED);
        await Promise.all(limits.map((l) => take(l.key, l.rule)));
        if (outcome.reason === "code") throw new Error("Wrong authentication code");
        return null;
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.uid = user.id;
      return token;
    },
    session({ session, token }) {
      return { ...session, userId: token.uid as string };
    },
  },
};

/** The logged-in account's id in a server component or route handler, or null. */
export async function sessionUserId(): Promise<string | null> {
  const session = (await getServerSession(authOptions)) as { userId?: string } | null;
  return session?.userId ?? null;
}
