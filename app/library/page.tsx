import { redirect } from "next/navigation";
import { CsvImport } from "@/components/library/CsvImport";
import { ServiceImport } from "@/components/library/ServiceImport";
import { Library } from "@/components/library/Library";
import { CreateCodes } from "@/components/library/CreateCodes";
import { libraryPageInput } from "@/components/library/libraryPageInput";
import { sessionUserId } from "@/server/accounts/auth";
import { HydrateClient, prefetch, trpc } from "@/trpc/server";

export const dynamic = "force-dynamic";

export default async function LibraryPage() {
  const userId = await sessionUserId();
  if (!userId) redirect("/login?callbackUrl=/library");
  await prefetch(trpc.library.page.queryOptions(libraryPageInput("personal")));
  return (
    <HydrateClient>
      <section className="card">
        <h1>Your library</h1>
        <p className="muted">
          Static codes hold their content itself: a web address, text, Wi-Fi, a contact card, an event and more. Dynamic
          codes hold a short link that redirects to a destination you can change at any time, and count every scan. Team
          codes live on <a href="/business">Business</a>.
        </p>
      </section>
      {/* Create first, then import a file, then the codes (issue 39). */}
      <CreateCodes libraryKind="personal" />
      <CsvImport libraryKind="personal" />
      <ServiceImport libraryKind="personal" />
      <Library libraryKind="personal" title="Codes" />
    </HydrateClient>
  );
}
