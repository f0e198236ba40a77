// next-auth: credentials log-in, JWT sessions.
import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { clientAddress } from "./client-address";
import { checkCredentials } from "./domain/users";
import { loginByAccount, loginByAddress } from "./domain/throttle";
import { secret } from "./secrets";

export const authOptions: NextAuthOptions = {
  // Read when a request needs it, not when the module loads (`next build` loads it too).
  get secret() {
    return secret("NEXTAUTH_SECRET");
  },
  session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
  pages: { signIn: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const email = String(credentials?.email ?? "").trim().toLowerCase();
        const password = String(credentials?.password ?? "");
        const address = `addr:${clientAddress(new Headers(req.headers as Record<string, string>))}`;
        const account = `acct:${email}`;
        const wait = Math.max(loginByAccount.retryAfter(account), loginByAddress.retryAfter(address));
        if (wait > 0) throw new Error(`Too many failed log-ins: try again in ${Math.ceil(wait / 60)} minute(s)`);
        const user = email && password ? await checkCredentials(email, password) : null;
        if (!user) {
          loginByAccount.fail(account);
          loginByAddress.fail(address);
          return null;
        }
        loginByAccount.clear(account);
        return { id: user.id, email: user.email, name: user.name };
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
