import { redirect } from "next/navigation";
import { HOME, ownPath } from "@/components/account/ownPath";
import { SignupForm } from "@/components/account/SignupForm";
import { sessionUserId } from "@/server/accounts/auth";

export default async function SignupPage({
  searchParams,
}: {
  searchParams: Promise<{ email?: string; next?: string }>;
}) {
  if (await sessionUserId()) redirect(HOME);
  // From an invitation's link: its address filled in, and back to the invitation once signed up.
  const { email, next } = await searchParams;
  return <SignupForm email={email ?? ""} next={ownPath(next, HOME)} />;
}
