import { redirect } from "next/navigation";
import { Library } from "@/components/Library";
import { sessionUserId } from "@/server/auth";
import { actorFor, libraryPage } from "@/server/domain/libraryItems";

export const dynamic = "force-dynamic";

export default async function LibraryPage() {
  const userId = await sessionUserId();
  if (!userId) redirect("/login?callbackUrl=/library");
  const initial = await libraryPage(await actorFor(userId, "personal"), {});
  return (
    <>
      <section className="card">
        <h1>Your library</h1>
        <p className="muted">
          Static codes hold their URL itself. Dynamic codes hold a short link that redirects to a destination you can change at any time, and count every
          scan. Team codes live on <a href="/business">Business</a>.
        </p>
      </section>
      <Library scope="personal" title="Codes" initial={initial} />
    </>
  );
}
