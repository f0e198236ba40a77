import { redirect } from "next/navigation";
import { LoginForm } from "@/components/LoginForm";
import { sessionUserId } from "@/server/auth";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  if (await sessionUserId()) redirect("/profile");
  const { callbackUrl } = await searchParams;
  // Only our own paths: an open redirect would send people elsewhere after log-in.
  const next = callbackUrl && callbackUrl.startsWith("/") && !callbackUrl.startsWith("//") ? callbackUrl : "/profile";
  return <LoginForm next={next} />;
}
