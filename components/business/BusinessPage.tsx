"use client";
// /business: the team, in sections a person jumps between (./sections.ts), or how to get one.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense, useEffect, useState } from "react";
import { useTRPC } from "@/trpc/react";
import { ActivityPanel } from "../activity/ActivityPanel";
import { CsvImport } from "../library/CsvImport";
import { ServiceImport } from "../library/ServiceImport";
import { Email } from "../ui/Email";
import { Library } from "../library/Library";
import { CreateCodes } from "../library/CreateCodes";
import { libraryPageInput } from "../library/libraryPageInput";
import { PendingChanges } from "../library/PendingChanges";
import { ReviewQueue } from "./ReviewQueue";
import { useAction } from "../ui/useAction";
import { WebhooksPanel } from "../webhooks/WebhooksPanel";
import { DomainsPanel } from "../domains/DomainsPanel";
import { BrandKitsPanel } from "../stylePresets/BrandKitsPanel";
import { Keys } from "./Keys";
import { Members } from "./Members";
import { sectionOf, sectionsFor, type SectionId } from "./sections";
import { useTeamMutations, type Section, type TeamOverview } from "./teamMutations";

/** The page's body: the team (team.overview, prefetched by the page), or how to get one. */
export function BusinessPage({ account }: { account: { email: string; tier: string } }) {
  const trpc = useTRPC();
  const { data: overview } = useSuspenseQuery(trpc.team.overview.queryOptions());
  if (overview) return <TeamPage overview={overview} />;
  return (
    <section className="card">
      <h1>Business</h1>
      <p>
        A team shares one library. Writers and admins each hold their own business key; whatever they add waits as a
        draft until an admin approves it.
      </p>
      {account.tier === "business" ? (
        <CreateTeamForm />
      ) : (
        <p data-testid="no-team">
          You are not in a team. Creating one takes the Business plan (yours is <strong>{account.tier}</strong>); or ask
          a team&apos;s admin to invite <strong>{account.email}</strong>.
        </p>
      )}
    </section>
  );
}

function CreateTeamForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.team.create.mutationOptions({
      // The new team's (empty) library first, so the page shows the team and its library at once.
      onSuccess: async () => {
        await queryClient.prefetchQuery(trpc.library.page.queryOptions(libraryPageInput("team")));
        await queryClient.invalidateQueries(trpc.team.overview.queryFilter());
      },
    }),
  );
  const [name, setName] = useState("");
  const { error, busy, run } = useAction();
  return (
    <form
      method="post"
      onSubmit={(e) => {
        e.preventDefault();
        void run(() => create.mutateAsync({ name }));
      }}
    >
      {error && <p className="error">{error}</p>}
      <label htmlFor="team-name">Team name</label>
      <input id="team-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      <p className="actions">
        <button type="submit" disabled={busy}>
          Create team
        </button>
      </p>
    </form>
  );
}

/**
 * The team's name and facts, the menu of its sections and the one the address names. A
 * section is chosen without reloading the page (the address changes, so Back and a shared link
 * work); `#members` is read as `?section=members`.
 */
function TeamPage({ overview }: { overview: TeamOverview }) {
  const mutations = useTeamMutations();
  const current = sectionOf(useSearchParams().get("section"), overview.role);
  const router = useRouter();
  useEffect(() => {
    const hash = window.location.hash.slice(1);
    if (hash && sectionOf(hash, overview.role) === hash) router.replace(`/business?section=${hash}`, { scroll: false });
  }, [overview.role, router]);
  return (
    <>
      <section className="card">
        <h1>{overview.team.name}</h1>
        <dl className="facts">
          <dt>Your role</dt>
          <dd data-testid="team-role" className="nowrap">
            {overview.role}
          </dd>
          <dt>Owner</dt>
          <dd>
            <Email address={overview.team.ownerEmail} />
          </dd>
        </dl>
        {!overview.team.ownerOnBusiness && (
          <p className="error">
            The team&apos;s owner is not on the Business plan: the team&apos;s keys are refused (403) until they
            upgrade.
          </p>
        )}
        <nav className="section-nav" aria-label="Sections of the team page">
          <ul>
            {sectionsFor(overview.role).map(({ id, label }) => (
              <li key={id}>
                <a
                  href={`?section=${id}`}
                  aria-current={id === current ? "page" : undefined}
                  onClick={(e) => {
                    // A new tab or window (a modifier key) opens the address as it is.
                    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                    e.preventDefault();
                    window.history.pushState(null, "", `?section=${id}`);
                  }}
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </section>
      <div data-testid={`section-${current}`}>
        <TeamSection section={current} overview={overview} mutations={mutations} />
      </div>
    </>
  );
}

const loading = (what: string) => (
  <section className="card">
    <p className="muted">Loading {what}…</p>
  </section>
);

function TeamSection({ section, overview, mutations }: Section & { section: SectionId }) {
  const isAdmin = overview.role === "admin";
  switch (section) {
    case "library":
      return (
        <Suspense fallback={loading("the team library")}>
          <Library libraryKind="team" title="Team library" />
        </Suspense>
      );
    case "create":
      // One code or pasted lines first, then a file (as on /library).
      return (
        <>
          <CreateCodes libraryKind="team" />
          <CsvImport libraryKind="team" />
          <ServiceImport libraryKind="team" />
        </>
      );
    case "review":
      return (
        <>
          <Suspense fallback={loading("the review queue")}>
            <ReviewQueue isAdmin={isAdmin} />
          </Suspense>
          <Suspense fallback={loading("the changes waiting for review")}>
            <PendingChanges isAdmin={isAdmin} />
          </Suspense>
        </>
      );
    case "members":
      return <Members overview={overview} mutations={mutations} />;
    case "keys":
      return <Keys overview={overview} mutations={mutations} />;
    case "webhooks":
      return <WebhooksPanel scope="team" />;
    case "domains":
      return <DomainsPanel scope="team" />;
    case "brand-kits":
      return <BrandKitsPanel scope="team" />;
    case "activity":
      return <ActivityPanel scope="team" />;
  }
}
