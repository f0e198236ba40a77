"use client";
// A library on the page: /library (personal) or the team library on /business. Search,
// pages, edit, delete, copy the short URL, QR images and the
// style editor. Every change is a call to the same domain functions as /v1.
import { useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { LibraryKind } from "@/server/library/libraryItems";
import { CopyButton } from "../ui/CopyButton";
import { useTRPC, type RouterOutputs } from "@/trpc/react";
import { FIRST_PAGE, libraryPageInput, type LibraryQuery } from "./libraryPageInput";
import { Email } from "../ui/Email";
import { NotLiveNote } from "./NotLiveNote";
import { Pager } from "../ui/Pager";
import { ChangeNotes } from "./PendingChanges";
import { RulesEditor } from "./RulesEditor";
import { StyleEditor } from "./StyleEditor";
import { EditForm } from "./EditForm";
import { useAction } from "../ui/useAction";
import { useLibraryMutations, type LibraryMutations } from "./useLibraryMutations";
import { ZipDownload } from "./ZipDownload";
import { plural } from "../ui/words";

type LibraryPage = RouterOutputs["library"]["page"];
type LibraryItem = LibraryPage["items"][number];
type Run = (action: () => Promise<unknown>) => Promise<void>;

/** A ticked code, as `static:<qr_id>` or `dynamic:<code>`. */
const selectionKey = (item: LibraryItem) => `${item.kind}:${item.id}`;

export const imageUrl = (item: Pick<LibraryItem, "kind" | "id">, query: string) =>
  `/library/qr/${item.kind}/${encodeURIComponent(item.id)}?${query}`;

type Props = { libraryKind: LibraryKind; title: string };

export function Library({ libraryKind, title }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState<LibraryQuery>(FIRST_PAGE);
  const { data } = useSuspenseQuery(trpc.library.page.queryOptions(libraryPageInput(libraryKind, query)));
  const mutations = useLibraryMutations(libraryKind);
  const { error, busy, run } = useAction();
  // Another page of the library (a search, the pager): fetched before it is shown, so a
  // failure leaves the page as it was, with the error.
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allOfSearch, setAllOfSearch] = useState(false);
  const show = (next: LibraryQuery) =>
    run(async () => {
      await queryClient.fetchQuery(trpc.library.page.queryOptions(libraryPageInput(libraryKind, next)));
      // "Select all" means the codes of one search: another search starts over.
      if (next.search !== query.search) {
        setSelected(new Set());
        setAllOfSearch(false);
      }
      setQuery(next);
    });
  const toggleItem = (item: LibraryItem, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(selectionKey(item));
    else next.delete(selectionKey(item));
    setSelected(next);
  };
  const canEdit = data.role !== "viewer";
  const headingId = `${libraryKind}-library-title`;

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {!canEdit && (
        <p className="muted" data-testid="read-only">
          Viewers only read the team library.
        </p>
      )}
      {error && (
        <p className="error" role="alert" data-testid="library-page-error">
          {error}
        </p>
      )}
      <form
        method="post"
        className="inline-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void show({ search, page: 1 });
        }}
      >
        <div>
          <label htmlFor={`${libraryKind}-search`}>Search</label>
          <input
            id={`${libraryKind}-search`}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name, URL or code"
          />
        </div>
        <button type="submit" className="secondary" disabled={busy}>
          Search
        </button>
      </form>

      {data.items.length === 0 ? (
        <p className="empty" data-testid="library-empty">
          {query.search ? (
            <>Nothing matches “{query.search}”.</>
          ) : canEdit ? (
            "No codes yet: create your first one, or import a CSV file."
          ) : (
            "The library is empty."
          )}
        </p>
      ) : (
        <ul className="items">
          {data.items.map((item) => (
            <ItemRow
              key={`${item.kind}-${item.id}`}
              libraryKind={libraryKind}
              mutations={mutations}
              item={item}
              role={data.role}
              statuses={data.statuses}
              busy={busy}
              run={run}
              selected={allOfSearch || selected.has(selectionKey(item))}
              onSelect={allOfSearch ? null : (on) => toggleItem(item, on)}
            />
          ))}
        </ul>
      )}
      <Pager
        label="Pages"
        testId="page-of"
        page={data.page}
        pages={data.pages}
        count={plural(data.total, "code")}
        busy={busy}
        onPage={(page) => void show({ ...query, page })}
      />
      {data.total > 0 && (
        <ZipDownload
          libraryKind={libraryKind}
          search={query.search}
          total={data.total}
          selected={selected}
          allOfSearch={allOfSearch}
          setAllOfSearch={setAllOfSearch}
        />
      )}
      {/* The API's export files (GET /v1/qrcodes/export, /v1/dynqrcodes/export) of this library: short
          words that fit one row on a phone, each link's name saying the whole. */}
      <p className="actions export-links">
        <span className="muted">Export codes as CSV:</span>
        <a
          className="button secondary small"
          href={`/library/export/dynqrcodes.csv?scope=${libraryKind}`}
          aria-label="Export dynamic codes (CSV)"
          download
        >
          Dynamic
        </a>
        <a
          className="button secondary small"
          href={`/library/export/qrcodes.csv?scope=${libraryKind}`}
          aria-label="Export static codes (CSV)"
          download
        >
          Static
        </a>
      </p>
    </section>
  );
}

function ItemRow({
  libraryKind,
  mutations,
  item,
  role,
  statuses,
  busy,
  run,
  selected,
  onSelect,
}: {
  libraryKind: LibraryKind;
  mutations: LibraryMutations;
  item: LibraryItem;
  role: LibraryPage["role"];
  statuses: LibraryItem["status"][];
  busy: boolean;
  run: Run;
  selected: boolean;
  /** Null while every code of the search is selected. */
  onSelect: ((on: boolean) => void) | null;
}) {
  const [panel, setPanel] = useState<"none" | "edit" | "style" | "rules">("none");
  const canEdit = role !== "viewer";
  const toggle = (next: "edit" | "style" | "rules") => setPanel(panel === next ? "none" : next);
  return (
    <li className="item" data-testid={`item-${item.id}`}>
      <input
        type="checkbox"
        className="select"
        aria-label={`Include ${item.name} in the ZIP`}
        checked={selected}
        disabled={onSelect === null}
        onChange={(e) => onSelect?.(e.target.checked)}
      />
      {/* eslint-disable-next-line @next/next/no-img-element -- a generated image, not a static asset */}
      <img
        className="thumb"
        src={imageUrl(item, `size=96&v=${encodeURIComponent(JSON.stringify(item.style))}`)}
        width={96}
        height={96}
        alt={`QR code of ${item.name}`}
      />
      <div className="item-main">
        <div className="item-title">
          <strong>{item.name}</strong> <span className="badge">{item.kind}</span>{" "}
          <span className={`badge ${item.status}`}>{item.status}</span>
        </div>
        {item.shortUrl && (
          <div className="mono short-url">
            {item.shortUrl} <CopyButton text={item.shortUrl} />
          </div>
        )}
        <div className="muted wrap">
          {item.kind === "dynamic" ? "→ " : ""}
          {item.url}
        </div>
        <ChangeNotes item={item} />
        <div className="muted small-text">
          {libraryKind === "team" && (
            <>
              by <Email address={item.createdBy} /> ·{" "}
            </>
          )}
          {new Date(item.createdAt).toLocaleDateString()}
          {item.totalScans !== null && (
            <>
              {" "}
              · {item.totalScans} {item.totalScans === 1 ? "scan" : "scans"} ·{" "}
              <Link href={`/analytics/${item.id}`}>Analytics</Link>
            </>
          )}
        </div>
        <NotLiveNote item={item} />
        <div className="actions tight">
          <a className="button secondary small" href={imageUrl(item, "format=svg&download=1")} download>
            Download SVG
          </a>
          <a className="button secondary small" href={imageUrl(item, "format=png&size=1024&download=1")} download>
            Download PNG
          </a>
          <a className="button secondary small" href={imageUrl(item, "format=pdf&download=1")} download>
            Download PDF
          </a>
          {canEdit && item.kind === "dynamic" && (
            <button
              type="button"
              className="secondary small"
              aria-expanded={panel === "edit"}
              onClick={() => toggle("edit")}
            >
              Edit
            </button>
          )}
          {canEdit && item.kind === "dynamic" && (
            <button
              type="button"
              className="secondary small"
              aria-expanded={panel === "rules"}
              onClick={() => toggle("rules")}
            >
              Rules
            </button>
          )}
          {canEdit && (
            <button
              type="button"
              className="secondary small"
              aria-expanded={panel === "style"}
              onClick={() => toggle("style")}
            >
              Style
            </button>
          )}
          {canEdit && (
            <button
              type="button"
              className="danger small"
              disabled={busy}
              onClick={() => {
                if (
                  window.confirm(
                    `Delete “${item.name}”?${item.kind === "dynamic" ? " Its short link stops working; its scan history is kept." : ""}`,
                  )
                ) {
                  void run(() => mutations.remove.mutateAsync({ scope: libraryKind, kind: item.kind, id: item.id }));
                }
              }}
            >
              Delete
            </button>
          )}
        </div>
        {panel === "edit" && (
          <EditForm
            libraryKind={libraryKind}
            mutations={mutations}
            item={item}
            choices={statuses}
            busy={busy}
            done={() => setPanel("none")}
          />
        )}
        {panel === "rules" && (
          <RulesEditor
            libraryKind={libraryKind}
            mutations={mutations}
            item={item}
            busy={busy}
            done={() => setPanel("none")}
          />
        )}
        {panel === "style" && (
          <StyleEditor
            libraryKind={libraryKind}
            saveStyle={mutations.saveStyle.mutateAsync}
            item={item}
            busy={busy}
            done={() => setPanel("none")}
            canSaveKit={libraryKind === "personal" || role === "admin"}
          />
        )}
      </div>
    </li>
  );
}
