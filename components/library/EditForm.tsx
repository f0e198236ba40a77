"use client";
// A dynamic code's edit form in the library: name, destination (a hosted code's content
// instead: docs/TYPES.md "Hosted pages") and status.
import { useState } from "react";
import type { LibraryKind } from "@/server/library/libraryItems";
import type { RouterOutputs } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import type { LibraryMutations } from "./useLibraryMutations";
import { UrlInput } from "../ui/UrlInput";
import { useCodePatch } from "./useCodePatch";
import { ContentFields, contentOf, valuesOf, type ContentValues } from "./ContentFields";

type LibraryItem = RouterOutputs["library"]["page"]["items"][number];

function changedContent(type: "vcard" | "page", values: ContentValues, stored: LibraryItem["content"]) {
  const content = contentOf(type, values);
  return JSON.stringify(content) === JSON.stringify(contentOf(type, valuesOf(type, stored))) ? {} : { content };
}

export function EditForm({
  libraryKind,
  mutations,
  item,
  choices,
  busy,
  done,
}: {
  libraryKind: LibraryKind;
  mutations: LibraryMutations;
  item: LibraryItem;
  choices: LibraryItem["status"][];
  busy: boolean;
  done: () => void;
}) {
  const [name, setName] = useState(item.name);
  const [url, setUrl] = useState(item.url);
  const hosted = item.type === "vcard" || item.type === "page" ? item.type : null;
  const [values, setValues] = useState(() => (hosted ? valuesOf(hosted, item.content) : {}));
  const [status, setStatus] = useState(item.status);
  // The form's own error, shown at the form and cleared by the next change.
  const { error, saving, clear, save } = useCodePatch({ libraryKind, mutations, item, done });
  const options = choices.includes(item.status) ? choices : [item.status, ...choices];
  const prefix = `edit-${item.id}`;
  return (
    <form
      method="post"
      className="panel"
      aria-label={`Edit ${item.name}`}
      // Any change of a field clears the last save's error.
      onChange={clear}
      onSubmit={(e) => {
        e.preventDefault();
        save({
          ...(name !== item.name ? { name } : {}),
          // Sent only when changed: a writer's unchanged content would be held for review.
          ...(hosted ? changedContent(hosted, values, item.content) : url !== item.url ? { destination_url: url } : {}),
          ...(status !== item.status ? { status } : {}),
        });
      }}
    >
      <label htmlFor={`${prefix}-name`}>Name</label>
      <input id={`${prefix}-name`} value={name} onChange={(e) => setName(e.target.value)} required />
      {hosted ? (
        <ContentFields type={hosted} values={values} onValues={setValues} />
      ) : (
        <>
          <label htmlFor={`${prefix}-url`}>Destination URL</label>
          <UrlInput id={`${prefix}-url`} value={url} onValue={setUrl} required />
        </>
      )}
      <label htmlFor={`${prefix}-status`}>Status</label>
      <select
        id={`${prefix}-status`}
        value={status}
        onChange={(e) => setStatus(e.target.value as LibraryItem["status"])}
      >
        {options.map((s) => (
          <option key={s} value={s} disabled={!choices.includes(s)}>
            {s}
          </option>
        ))}
      </select>
      <p className="muted">
        A paused code&apos;s short link answers 404 and records no scans until it is active again.
      </p>
      <FormError error={error} testId={`edit-error-${item.id}`} />
      <div className="actions">
        <button type="submit" disabled={busy || saving}>
          Save
        </button>
        <button type="button" className="secondary" onClick={done}>
          Cancel
        </button>
      </div>
    </form>
  );
}
