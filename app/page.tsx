import Link from "next/link";

export default function Home() {
  return (
    <section className="card hero">
      <h1>QR codes that keep records</h1>
      <p>
        Static codes for fixed URLs, dynamic short links you can re-point at any time, scan analytics, CSV exports and a
        key-authenticated API under <code>/v1</code>.
      </p>
      <p className="actions">
        <Link className="button" href="/signup">
          Create account
        </Link>
        <Link className="button secondary" href="/login">
          Log in
        </Link>
      </p>
    </section>
  );
}
