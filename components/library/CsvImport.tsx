"use client";
// A library's CSV import on /library and /business (issue 21): the file is read and parsed
// here (csv-parse's browser build, the rules of `qr-records import`), every row is checked by
// the server before anything is created, then the rows are created in batches of 50, each
// under a key made of the file's SHA-256 and the batch's position, so importing the same file
// again after a closed tab or a reload creates only what is missing (server/library/libraryImport.ts).
import { useMutation, useQuery } from "@tanstack/react-query";
import { parse } from "csv-parse/browser/esm/sync";
import { useId, useState, useSyncExternalStore } from "react";
import {
  CSV_OPTIONS,
  IMPORT_BATCH_SIZE,
  IMPORT_CHECK_SIZE,
  importTable,
  TYPED_COLUMNS,
  type ImportKind,
  type ParsedRecord,
} from "@/clients/typescript/src/csv-rows";
import type { LibraryKind } from "@/server/library/libraryItems";
import { useTRPC } from "@/trpc/react";
import styles from "./CsvImport.module.css";
import { FormError } from "../ui/FormError";
import { useLibraryChanged } from "./useLibraryMutations";
import { libraryPageInput } from "./libraryPageInput";
import { messageOf } from "../ui/useAction";
import { count, sendBatch, sha256Hex } from "./importSteps";
import { plural } from "../ui/words";
import { FilePicker, ImportChecking, ImportOutcome } from "./ImportParts";

type Row = { line: number; name: string; url: string; status?: string; code?: string };
/** A file read, parsed and checked: what the import sends. */
type Prepared = { fileName: string; hash: string; kind: ImportKind; rows: Row[] };
type Problem = { line: number; error: string };
type Stage =
  | { step: "idle" }
  | { step: "checking"; fileName: string; checked: number; total: number }
  | { step: "refused"; fileName: string; total: number; problems: Problem[] }
  | { step: "ready"; file: Prepared }
  | { step: "importing"; file: Prepared; done: number }
  | { step: "stopped"; file: Prepared; done: number; error: string }
  | { step: "finished"; file: Prepared; created: number; replayed: number };

const rowCount = (n: number) => plural(n, "row");
/** How many refused lines are listed (the count says the rest). */
export const LISTED_PROBLEMS = 100;
/** What the browser remembers of an unfinished import, to say how to finish it. */
type Unfinished = { fileName: string; done: number; total: number };
const storageKey = (libraryKind: LibraryKind) => `qr-records-import:${libraryKind}`;
/** Read on every render (the server renders none); another tab's change re-renders. */
const onStorage = (changed: () => void) => {
  window.addEventListener("storage", changed);
  return () => window.removeEventListener("storage", changed);
};

/** The file as the import's rows; a header the command line would refuse throws its message. */
async function readFile(file: File): Promise<Prepared> {
  const bytes = await file.arrayBuffer();
  const records = parse(new TextDecoder().decode(bytes), CSV_OPTIONS) as unknown as ParsedRecord[];
  const { kind, rows, cell } = importTable(records);
  if (rows.length === 0) throw new Error("The file has a header but no rows");
  return {
    fileName: file.name,
    hash: await sha256Hex(bytes),
    kind,
    rows: rows.map((row) => ({
      line: row.line,
      name: cell(row, "name"),
      url: cell(row, kind === "static" ? "url" : "destination_url"),
      ...(kind === "dynamic"
        ? { status: cell(row, "status"), code: cell(row, "code"), domain: cell(row, "domain") }
        : { cells: Object.fromEntries(TYPED_COLUMNS.map((c) => [c, cell(row, c)]).filter(([, v]) => v !== "")) }),
    })),
  };
}

export function CsvImport({ libraryKind }: { libraryKind: LibraryKind }) {
  const trpc = useTRPC();
  const { data: library } = useQuery(trpc.library.page.queryOptions(libraryPageInput(libraryKind)));
  const check = useMutation(trpc.libraryImport.check.mutationOptions());
  const batch = useMutation(trpc.libraryImport.batch.mutationOptions());
  const changed = useLibraryChanged(libraryKind);
  const [stage, setStage] = useState<Stage>({ step: "idle" });
  const [fileError, setFileError] = useState<string | null>(null);
  const id = useId();
  const headingId = `${id}-title`;
  const progressId = `${id}-progress`;

  const saved = useSyncExternalStore(
    onStorage,
    () => window.localStorage.getItem(storageKey(libraryKind)),
    () => null,
  );
  const unfinished = saved ? (JSON.parse(saved) as Unfinished) : null;
  const remember = (value: Unfinished | null) => {
    if (value) window.localStorage.setItem(storageKey(libraryKind), JSON.stringify(value));
    else window.localStorage.removeItem(storageKey(libraryKind));
  };

  if (!library || library.role === "viewer") return null;
  const busy = stage.step === "checking" || stage.step === "importing";

  /** Reads the file and checks every row on the server, in calls of IMPORT_CHECK_SIZE rows; nothing is created. */
  const choose = async (file: File) => {
    setFileError(null);
    setStage({ step: "idle" });
    let prepared: Prepared;
    try {
      prepared = await readFile(file);
    } catch (error) {
      setFileError(`${file.name}: ${messageOf(error)}`);
      return;
    }
    const total = prepared.rows.length;
    const problems: Problem[] = [];
    try {
      for (let at = 0; at < total; at += IMPORT_CHECK_SIZE) {
        setStage({ step: "checking", fileName: prepared.fileName, checked: at, total });
        const answer = await check.mutateAsync({
          scope: libraryKind,
          kind: prepared.kind,
          rows: prepared.rows.slice(at, at + IMPORT_CHECK_SIZE),
        });
        problems.push(...answer.problems);
      }
    } catch (error) {
      setStage({ step: "idle" });
      setFileError(messageOf(error));
      return;
    }
    setStage(
      problems.length > 0
        ? { step: "refused", fileName: prepared.fileName, total, problems }
        : { step: "ready", file: prepared },
    );
  };

  /** One batch; a batch still running from before a reload (CONFLICT) is waited for and sent again. */
  const send = async (file: Prepared, position: number) => {
    const input = {
      scope: libraryKind,
      kind: file.kind,
      file: file.hash,
      position,
      rows: file.rows.slice(position * IMPORT_BATCH_SIZE, (position + 1) * IMPORT_BATCH_SIZE),
    };
    return sendBatch(() => batch.mutateAsync(input));
  };

  const start = async (file: Prepared) => {
    const total = file.rows.length;
    let done = 0;
    let created = 0;
    let replayed = 0;
    setStage({ step: "importing", file, done });
    remember({ fileName: file.fileName, done, total });
    try {
      for (let position = 0; position * IMPORT_BATCH_SIZE < total; position++) {
        const answer = await send(file, position);
        if (answer.replayed) replayed += answer.created;
        else created += answer.created;
        done = Math.min(total, (position + 1) * IMPORT_BATCH_SIZE);
        setStage({ step: "importing", file, done });
        remember({ fileName: file.fileName, done, total });
      }
    } catch (error) {
      setStage({ step: "stopped", file, done, error: messageOf(error) });
      await changed();
      return;
    }
    remember(null);
    setStage({ step: "finished", file, created, replayed });
    await changed();
  };

  const draftNote =
    libraryKind === "team"
      ? " New team codes are drafts until an admin approves them, unless their status says otherwise (only an admin may publish)."
      : "";

  return (
    <section className="card" aria-labelledby={headingId} data-testid={`csv-import-${libraryKind}`}>
      <h2 id={headingId}>Import a CSV file</h2>
      <p className="muted">
        Columns <code>name,url</code> for static codes or <code>name,destination_url,status,code</code> for dynamic ones
        (status and code, your own back-half, optional), a header row first; any number of rows. Static codes of other
        kinds add a <code>type</code> column and one column per field of the type, named <code>type_field</code>:{" "}
        <code>wifi_ssid</code>, <code>wifi_password</code>, <code>vcard_phones</code> (several separated by{" "}
        <code>;</code>), <code>event_start</code>… Every row is checked before anything is created.
        {draftNote}
      </p>
      {unfinished && stage.step === "idle" && (
        <p className="notice warning" data-testid="import-unfinished">
          The import of {unfinished.fileName} stopped after {count(unfinished.done)} of {count(unfinished.total)} rows.
          Choose the same file to finish it: what was created is not created again.
        </p>
      )}
      <div className={styles.picker}>
        <FilePicker
          id={`${id}-file`}
          label="CSV file"
          accept=".csv,text/csv"
          disabled={busy}
          onFile={(file) => void choose(file)}
        />
      </div>
      <FormError error={fileError} testId="import-file-error" />

      <ImportChecking stage={stage} testId="import" rows={rowCount} />

      {stage.step === "refused" && (
        <div className="error" role="alert" data-testid="import-refused">
          <p className={styles.flush}>
            <strong>
              Nothing was created: {count(stage.problems.length)} of {count(stage.total)} rows of {stage.fileName}{" "}
              {stage.problems.length === 1 ? "is" : "are"} invalid.
            </strong>{" "}
            Fix {stage.problems.length === 1 ? "it" : "them"} and choose the file again.
          </p>
          <ul className={styles.problems} data-testid="import-problems">
            {stage.problems.slice(0, LISTED_PROBLEMS).map((p) => (
              <li key={p.line}>
                Line {p.line}: {p.error}
              </li>
            ))}
          </ul>
          {stage.problems.length > LISTED_PROBLEMS && (
            <p className={styles.flush}>…and {count(stage.problems.length - LISTED_PROBLEMS)} more.</p>
          )}
        </div>
      )}

      {stage.step === "ready" && (
        <div className={styles.ready} data-testid="import-ready">
          <p className="notice">
            {stage.file.fileName}: all {count(stage.file.rows.length)} rows are valid ({stage.file.kind} codes).
          </p>
          <button type="button" onClick={() => void start(stage.file)}>
            Import {count(stage.file.rows.length)} {stage.file.kind} {stage.file.rows.length === 1 ? "code" : "codes"}
          </button>
        </div>
      )}

      <ImportOutcome
        stage={stage}
        id={progressId}
        testId="import"
        rows={rowCount}
        summary={
          stage.step === "finished" &&
          `Done: ${count(stage.created)} ${stage.file.kind} ${stage.created === 1 ? "code" : "codes"} created${
            stage.replayed > 0
              ? `, ${count(stage.replayed)} already imported from this file before (not created again)`
              : ""
          }.`
        }
      />
    </section>
  );
}
