import Link from "next/link";
import { LogoutButton } from "../account/LogoutButton";
import { NavLinks } from "./NavLinks";

export function Nav({ loggedIn }: { loggedIn: boolean }) {
  return (
    <header className="nav">
      <Link href="/" className="brand">
        ▦ QR Records
      </Link>
      <nav aria-label="Main">
        <NavLinks
          links={
            loggedIn
              ? [
                  { href: "/library", label: "Library" },
                  { href: "/business", label: "Business" },
                  { href: "/analytics", label: "Analytics" },
                  { href: "/profile", label: "Profile" },
                  { href: "/docs", label: "API docs" },
                ]
              : [
                  { href: "/docs", label: "API docs" },
                  { href: "/login", label: "Log in" },
                  { href: "/signup", label: "Sign up" },
                ]
          }
        />
        {loggedIn && <LogoutButton />}
      </nav>
    </header>
  );
}
