import { redirect } from "next/navigation";
import { SignupForm } from "@/components/SignupForm";
import { sessionUserId } from "@/server/auth";

export default async function SignupPage() {
  if (await sessionUserId()) redirect("/profile");
  return <SignupForm />;
}
