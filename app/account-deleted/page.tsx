import Link from "next/link";

// Where Delete account ends: the browser is logged out, and says why.
export default function AccountDeletedPage() {
  return (
    <section className="card narrow">
      <h1>Account deleted</h1>
      <p className="notice" role="status" data-testid="account-deleted">
        Your account was deleted: its keys are revoked, its library is gone, and every session was logged out.
      </p>
      <p className="actions">
        <Link className="button" href="/signup">
          Create an account
        </Link>
        <Link className="button secondary" href="/login">
          Log in
        </Link>
      </p>
    </section>
  );
}
