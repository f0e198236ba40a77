import Link from "next/link";
import { LogoutButton } from "./LogoutButton";

export function Nav({ loggedIn }: { loggedIn: boolean }) {
  return (
    <header className="nav">
      <Link href="/" className="brand">▦ QR Records</Link>
      <nav aria-label="Main">
        {loggedIn ? (
          <>
            <Link href="/business">Business</Link>
            <Link href="/profile">Profile</Link>
            <LogoutButton />
          </>
        ) : (
          <>
            <Link href="/login">Log in</Link>
            <Link href="/signup">Sign up</Link>
          </>
        )}
      </nav>
    </header>
  );
}
