import { redirect } from "next/navigation";
import { LoginForm } from "@/components/LoginForm";
import { HOME, ownPath } from "@/components/ownPath";
import { sessionUserId } from "@/server/auth";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; email?: string }> }) {
  if (await sessionUserId()) redirect(HOME);
  const { callbackUrl, email } = await searchParams;
  const next = ownPath(callbackUrl, HOME);
  // `email`: filled in from an invitation's link.
  return <LoginForm next={next} email={email ?? ""} />;
}
