"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

/** The main links, the current section marked for screen readers (and underlined). */
export function NavLinks({ links }: { links: { href: string; label: string }[] }) {
  const path = usePathname();
  return links.map(({ href, label }) => (
    <Link key={href} href={href} aria-current={path === href || path.startsWith(`${href}/`) ? "page" : undefined}>
      {label}
    </Link>
  ));
}
