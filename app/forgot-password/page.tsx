import { ForgotPasswordForm } from "@/components/account/ForgotPasswordForm";

export default function ForgotPasswordPage() {
  return <ForgotPasswordForm />;
}
