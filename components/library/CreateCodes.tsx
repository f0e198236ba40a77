"use client";
// Creating codes on /library and the team library: one code (a static code of any type, or a
// dynamic code's contact card or link page, each with its own fields: ./ContentFields.tsx) or
// pasted lines, all created or none.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { LibraryKind } from "@/server/library/libraryItems";
import { useTRPC, type RouterOutputs } from "@/trpc/react";
import { UrlInput } from "../ui/UrlInput";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";
import { NameSelect } from "../ui/NameSelect";
import { useBackHalf } from "./BackHalfInput";
import { useLibraryMutations, type LibraryMutations } from "./useLibraryMutations";
import {
  CONTENT_TYPE_LABELS,
  ContentFields,
  contentOf,
  DYNAMIC_TYPE_LABELS,
  type CodeTypeChoice,
  type DynamicTypeChoice,
  type ContentValues,
} from "./ContentFields";

type Kind = RouterOutputs["library"]["page"]["items"][number]["kind"];

function KindSelect({ id, value, onChange }: { id: string; value: Kind; onChange: (kind: Kind) => void }) {
  return (
    <div className="kind-field">
      <label htmlFor={id}>Kind</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as Kind)}>
        {/* Short enough for the narrowest field; the page's introduction says what each kind is. */}
        <option value="dynamic">Dynamic (short link)</option>
        <option value="static">Static (holds its content)</option>
      </select>
    </div>
  );
}

/**
 * Creating codes, a card of its own above the library's import and list (a viewer of the
 * team library gets none).
 */
export function CreateCodes({ libraryKind }: { libraryKind: LibraryKind }) {
  const mutations = useLibraryMutations(libraryKind);
  const headingId = `${libraryKind}-create-title`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Create codes</h2>
      <CreateForms libraryKind={libraryKind} mutations={mutations} />
    </section>
  );
}

function CreateForms({ libraryKind, mutations }: { libraryKind: LibraryKind; mutations: LibraryMutations }) {
  const [kind, setKind] = useState<Kind>("dynamic");
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [type, setType] = useState<CodeTypeChoice>("url");
  const [dynamicType, setDynamicType] = useState<DynamicTypeChoice>("url");
  const [values, setValues] = useState<ContentValues>({});
  const chosen = kind === "static" ? type : dynamicType;
  const typed = chosen !== "url" ? chosen : null;
  const labels = kind === "static" ? CONTENT_TYPE_LABELS : DYNAMIC_TYPE_LABELS;
  const backHalf = useBackHalf(name);
  const trpc = useTRPC();
  const usable = useQuery(trpc.domains.usable.queryOptions({ scope: libraryKind })).data ?? [];
  const [domain, setDomain] = useState("");
  const kits = useQuery(trpc.stylePresets.list.queryOptions({ scope: libraryKind })).data?.style_presets ?? [];
  const [kit, setKit] = useState("");
  const [lines, setLines] = useState("");
  const [many, setMany] = useState(false);
  const draftNote = libraryKind === "team" ? " New team codes are drafts until an admin approves them." : "";
  // Creating has its own error, shown under its form and cleared by the next change.
  const { error, busy: creating, run, clear } = useAction();
  const show = (next: boolean) => {
    clear();
    setMany(next);
  };
  return (
    <div>
      <div className="tabs" role="group" aria-label="How to create">
        <button type="button" className={many ? "secondary" : ""} aria-pressed={!many} onClick={() => show(false)}>
          One code
        </button>
        <button type="button" className={many ? "" : "secondary"} aria-pressed={many} onClick={() => show(true)}>
          Paste many
        </button>
      </div>
      {many ? (
        <form
          method="post"
          onChange={clear}
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              await mutations.createMany.mutateAsync({ scope: libraryKind, kind, lines });
              setLines("");
            });
          }}
        >
          <KindSelect id={`${libraryKind}-many-kind`} value={kind} onChange={setKind} />
          <label htmlFor={`${libraryKind}-lines`}>Lines</label>
          <textarea
            id={`${libraryKind}-lines`}
            rows={5}
            value={lines}
            onChange={(e) => setLines(e.target.value)}
            placeholder={"Lunch menu, https://example.com/lunch\nWine list, https://example.com/wine"}
            required
          />
          <p className="muted">
            One code per line, as <code>name, url</code>; up to 50. All are created or none.{draftNote}
          </p>
          <button type="submit" disabled={creating}>
            Create all
          </button>
        </form>
      ) : (
        <form
          method="post"
          className="inline-form"
          onChange={clear}
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const code = kind === "dynamic" ? backHalf.code : undefined;
              const onDomain = kind === "dynamic" && domain !== "" ? domain : undefined;
              const style_preset = kit !== "" ? kit : undefined;
              await mutations.create.mutateAsync(
                typed
                  ? {
                      scope: libraryKind,
                      kind,
                      name,
                      type: typed,
                      content: contentOf(typed, values),
                      code,
                      domain: onDomain,
                      style_preset,
                    }
                  : { scope: libraryKind, kind, name, url, code, domain: onDomain, style_preset },
              );
              setName("");
              setUrl("");
              setValues({});
              backHalf.reset();
            });
          }}
        >
          <KindSelect id={`${libraryKind}-kind`} value={kind} onChange={setKind} />
          <div>
            <label htmlFor={`${libraryKind}-type`}>Type</label>
            <select
              id={`${libraryKind}-type`}
              value={chosen}
              onChange={(e) =>
                kind === "static"
                  ? setType(e.target.value as CodeTypeChoice)
                  : setDynamicType(e.target.value as DynamicTypeChoice)
              }
            >
              {Object.entries(labels).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${libraryKind}-name`}>Name</label>
            <input id={`${libraryKind}-name`} value={name} onChange={(e) => setName(e.target.value)} required />
          </div>
          {typed ? (
            <ContentFields type={typed} values={values} onValues={setValues} />
          ) : (
            <div>
              {/* The label the API's field has, so an error about it reads the same ("Destination URL must be…"). */}
              <label htmlFor={`${libraryKind}-url`}>{kind === "dynamic" ? "Destination URL" : "URL"}</label>
              <UrlInput id={`${libraryKind}-url`} value={url} onValue={setUrl} required placeholder="https://" />
            </div>
          )}
          {kind === "dynamic" && usable.length > 0 && (
            <div>
              <NameSelect
                id={`${libraryKind}-domain`}
                label="Domain"
                none="This service (/q/)"
                names={usable}
                value={domain}
                onValue={setDomain}
              />
            </div>
          )}
          {kits.length > 0 && (
            <div>
              <NameSelect
                id={`${libraryKind}-kit`}
                label="Brand kit"
                none="None (plain black on white)"
                names={kits.map((k) => k.name)}
                value={kit}
                onValue={setKit}
              />
            </div>
          )}
          {kind === "dynamic" && backHalf.field(`${libraryKind}-code`)}
          <button type="submit" disabled={creating}>
            Create
          </button>
          {kind === "dynamic" && backHalf.hint(`${libraryKind}-code`, domain)}
          {draftNote && <p className="muted full">{draftNote.trim()}</p>}
        </form>
      )}
      <FormError error={error} testId="library-error" />
    </div>
  );
}
