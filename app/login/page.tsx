import { redirect } from "next/navigation";
import { LoginForm } from "@/components/LoginForm";
import { ownPath } from "@/components/ownPath";
import { sessionUserId } from "@/server/auth";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; email?: string }> }) {
  if (await sessionUserId()) redirect("/profile");
  const { callbackUrl, email } = await searchParams;
  const next = ownPath(callbackUrl, "/profile");
  // `email`: filled in from an invitation's link.
  return <LoginForm next={next} email={email ?? ""} />;
}
