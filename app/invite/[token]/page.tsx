import Link from "next/link";
import { AcceptInvitation, SwitchAccount } from "@/components/business/InvitationPanel";
import { Email } from "@/components/ui/Email";
import { sessionUserId } from "@/server/accounts/auth";
import { invitationByToken, REFUSED } from "@/server/teams/invitations";
import { accountOf } from "@/server/accounts/users";

export const dynamic = "force-dynamic";

const article = (role: string) => (role === "admin" ? "an admin" : `a ${role}`);

/** A team invitation's link: who invites to which team and role, and how to accept. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [view, userId] = await Promise.all([invitationByToken(token), sessionUserId()]);
  if (view.state !== "pending") {
    return (
      <section className="card narrow">
        <h1>Invitation refused</h1>
        <p className="error" data-testid="invitation-refused">
          {REFUSED[view.state]}.
        </p>
        <p className="muted">
          <Link href="/business">Go to the Business page</Link>
        </p>
      </section>
    );
  }
  const account = userId ? await accountOf(userId) : null;
  const here = `/invite/${token}`;
  return (
    <section className="card narrow">
      <h1>Join “{view.teamName}”</h1>
      <p data-testid="invitation-summary">
        {view.invitedBy} invites <Email address={view.email} /> to the team <strong>{view.teamName}</strong> as{" "}
        <strong data-testid="invitation-role">{article(view.role)}</strong>.
      </p>
      {!account ? (
        <>
          <p>
            Log in, or create an account, with <Email address={view.email} /> to accept. You come back here afterwards.
          </p>
          <p className="actions">
            <Link className="button" href={`/login?${new URLSearchParams({ email: view.email, callbackUrl: here })}`}>
              Log in
            </Link>
            <Link
              className="button secondary"
              href={`/signup?${new URLSearchParams({ email: view.email, next: here })}`}
            >
              Sign up
            </Link>
          </p>
        </>
      ) : account.email !== view.email ? (
        <>
          <p className="error" data-testid="invitation-other-account">
            This invitation is for <Email address={view.email} />, and you are logged in as{" "}
            <Email address={account.email} />.
          </p>
          <SwitchAccount email={view.email} back={here} />
        </>
      ) : (
        <AcceptInvitation token={token} />
      )}
      <p className="muted">
        The link works once and expires on {new Date(view.expiresAt).toUTCString().replace(/:\d\d GMT$/, " UTC")}.
      </p>
    </section>
  );
}
