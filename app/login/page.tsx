import { redirect } from "next/navigation";
import { LoginForm } from "@/components/account/LoginForm";
import { HOME, ownPath } from "@/components/account/ownPath";
import { sessionUserId } from "@/server/accounts/auth";

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; email?: string }>;
}) {
  if (await sessionUserId()) redirect(HOME);
  const { callbackUrl, email } = await searchParams;
  const next = ownPath(callbackUrl, HOME);
  // `email`: filled in from an invitation's link.
  return <LoginForm next={next} email={email ?? ""} />;
}
