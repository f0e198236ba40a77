import { MailedLink } from "@/components/account/MailedLink";

export const dynamic = "force-dynamic";

export default async function ConfirmEmailPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return <MailedLink kind="confirm" token={token ?? ""} />;
}
