// On every page of an account whose address is not verified yet (right after sign-up too):
// where the mail went, why it matters, and the resend action.
import { accountOf } from "@/server/accounts/users";
import { Email } from "../ui/Email";
import { ResendVerification } from "./ResendVerification";

export async function VerifyNotice({ userId }: { userId: string }) {
  const account = await accountOf(userId);
  if (!account || account.verified) return null;
  return (
    <section
      id="verify-notice"
      className="card notice warning"
      aria-label="Verify your email address"
      data-testid="verify-notice"
    >
      <p>
        We sent a link to <Email address={account.email} /> to verify it. Until you open it, API keys cannot be
        generated.
      </p>
      <ResendVerification />
    </section>
  );
}
