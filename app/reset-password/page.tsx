import Link from "next/link";
import { ResetPasswordForm } from "@/components/account/ResetPasswordForm";
import { tokenUsable } from "@/server/accounts/accountTokens";

export const dynamic = "force-dynamic";

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  // Checked (not used) as the page loads: a dead link says so before a new password is typed.
  if (typeof token === "string" && (await tokenUsable("reset_password", token)))
    return <ResetPasswordForm token={token} />;
  return (
    <section className="card narrow">
      <h1>Set a new password</h1>
      <p className="error" data-testid="reset-link-dead">
        This link has expired or was already used. A reset link works once, for an hour.
      </p>
      <p className="actions">
        <Link className="button" href="/forgot-password">
          Ask for a new link
        </Link>
      </p>
    </section>
  );
}
