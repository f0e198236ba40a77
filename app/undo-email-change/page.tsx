import { MailedLink } from "@/components/account/MailedLink";

export const dynamic = "force-dynamic";

export default async function UndoEmailChangePage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return <MailedLink kind="undo" token={token ?? ""} />;
}
