"use client";
// "Import from another service" on /library and /business (issue 43): the export of Bitly, Dub,
// Shlink, YOURLS, Kutt or Rebrandly read here by the readers `qr-records import-from` uses
// (clients/typescript/src/import-from, docs/IMPORTERS.md), every link checked by the server,
// then the good ones created in batches as the CSV import creates its rows (its procedures:
// server/library/libraryImport.ts). Bad rows do not stop the others: they are listed.
// Choosing the same file again goes on where an import stopped: the links made before are
// recognised by their external_id and counted, not created twice. A verified domain of the
// library may be chosen, as `--domain` on the command line: the links keep their back-halves on it.
import { useMutation, useQuery } from "@tanstack/react-query";
import { parse } from "csv-parse/browser/esm/sync";
import { useId, useState } from "react";
import { CSV_OPTIONS, IMPORT_BATCH_SIZE, type ParsedRecord } from "@/clients/typescript/src/csv-rows";
import { planImport, SERVICE_NAMES, SERVICES, type ServiceName } from "@/clients/typescript/src/import-from";
import type { LibraryKind } from "@/server/library/libraryItems";
import { useTRPC } from "@/trpc/react";
import styles from "./CsvImport.module.css";
import { LISTED_PROBLEMS } from "./CsvImport";
import { FormError } from "../ui/FormError";
import { messageOf } from "../ui/useAction";
import { useLibraryChanged } from "./useLibraryMutations";
import { libraryPageInput } from "./libraryPageInput";
import { count, sendBatch, sha256Hex } from "./importSteps";
import { plural } from "../ui/words";
import { NameSelect } from "../ui/NameSelect";
import { FilePicker, ImportChecking, ImportOutcome } from "./ImportParts";

/** A link as the import sends it: `line` its position among the links (the problems' key), `source` its line in the file. */
type Row = {
  line: number;
  source: number;
  name: string;
  url: string;
  code: string;
  /** The custom domain chosen ("" for the service's own base). */
  domain: string;
  metadata: Record<string, string>;
  external_id: string;
};
type Problem = { line: number; error: string };
/** A row as the server takes it (without its line in the file). */
const sent = ({ line, name, url, code, domain, metadata, external_id }: Row) => ({
  line,
  name,
  url,
  code,
  domain,
  metadata,
  external_id,
});
type Prepared = { fileName: string; hash: string; label: string; rows: Row[]; refused: Problem[]; existing: number };
type Stage =
  | { step: "idle" }
  | { step: "checking"; fileName: string; checked: number; total: number }
  | { step: "ready"; file: Prepared }
  | { step: "importing"; file: Prepared; done: number }
  | { step: "stopped"; file: Prepared; done: number; error: string }
  | { step: "finished"; file: Prepared; created: number; replayed: number };

const readCsv = (text: string) => parse(text, CSV_OPTIONS) as unknown as ParsedRecord[];
const links = (n: number) => plural(n, "link");

export function ServiceImport({ libraryKind }: { libraryKind: LibraryKind }) {
  const trpc = useTRPC();
  const { data: library } = useQuery(trpc.library.page.queryOptions(libraryPageInput(libraryKind)));
  const check = useMutation(trpc.libraryImport.check.mutationOptions());
  const batch = useMutation(trpc.libraryImport.batch.mutationOptions());
  const usable = useQuery(trpc.domains.usable.queryOptions({ scope: libraryKind })).data ?? [];
  const changed = useLibraryChanged(libraryKind);
  const [service, setService] = useState<ServiceName>("bitly");
  const [domain, setDomain] = useState("");
  const [stage, setStage] = useState<Stage>({ step: "idle" });
  const [fileError, setFileError] = useState<string | null>(null);
  const id = useId();

  if (!library || library.role === "viewer") return null;
  const busy = stage.step === "checking" || stage.step === "importing";

  /** Reads the export, checks every link on the server (50 at a time: a link's metadata can be long); creates nothing. */
  const choose = async (file: File) => {
    setFileError(null);
    setStage({ step: "idle" });
    const { label, read } = SERVICES[service];
    let rows: Row[];
    const refused: Problem[] = [];
    let bytes: ArrayBuffer;
    try {
      bytes = await file.arrayBuffer();
      const parsed = read(new TextDecoder().decode(bytes), readCsv);
      const plan = planImport(service, parsed.rows, { domain: domain || null });
      refused.push(...[...parsed.rejected, ...plan.rejected].map(({ line, error }) => ({ line, error })));
      rows = plan.codes.map(({ line, item }, i) => ({
        line: i + 1,
        source: line,
        name: item.name,
        url: item.destination_url,
        code: item.code,
        domain,
        metadata: item.metadata,
        external_id: item.external_id,
      }));
    } catch (error) {
      setFileError(`${file.name}: ${messageOf(error)}`);
      return;
    }
    const bad = new Set<number>();
    let existing = 0;
    try {
      for (let at = 0; at < rows.length; at += IMPORT_BATCH_SIZE) {
        setStage({ step: "checking", fileName: file.name, checked: at, total: rows.length });
        const slice = rows.slice(at, at + IMPORT_BATCH_SIZE).map(sent);
        const answer = await check.mutateAsync({ scope: libraryKind, kind: "dynamic", rows: slice });
        for (const p of answer.problems) {
          bad.add(p.line);
          if ("existing" in p && p.existing) existing++;
          else refused.push({ line: rows[p.line - 1].source, error: p.error });
        }
      }
    } catch (error) {
      setStage({ step: "idle" });
      setFileError(messageOf(error));
      return;
    }
    const ready = rows.filter((row) => !bad.has(row.line)).map((row, i) => ({ ...row, line: i + 1 }));
    // The batches' key: the file and the links still to import (a later choice of it, fewer).
    const key = new TextEncoder().encode(`${service}\n${domain}\n${ready.map((r) => r.code).join("\n")}\n`);
    const hash = await sha256Hex(await new Blob([bytes, key]).arrayBuffer());
    refused.sort((a, b) => a.line - b.line);
    setStage({ step: "ready", file: { fileName: file.name, hash, label, rows: ready, refused, existing } });
  };

  const start = async (file: Prepared) => {
    const total = file.rows.length;
    let done = 0;
    let created = 0;
    let replayed = 0;
    setStage({ step: "importing", file, done });
    try {
      for (let position = 0; position * IMPORT_BATCH_SIZE < total; position++) {
        const rows = file.rows.slice(position * IMPORT_BATCH_SIZE, (position + 1) * IMPORT_BATCH_SIZE);
        const input = {
          scope: libraryKind,
          kind: "dynamic" as const,
          file: file.hash,
          position,
          rows: rows.map(sent),
        };
        const answer = await sendBatch(() => batch.mutateAsync(input));
        if (answer.replayed) replayed += answer.created;
        else created += answer.created;
        done = Math.min(total, (position + 1) * IMPORT_BATCH_SIZE);
        setStage({ step: "importing", file, done });
      }
    } catch (error) {
      setStage({ step: "stopped", file, done, error: messageOf(error) });
      await changed();
      return;
    }
    setStage({ step: "finished", file, created, replayed });
    await changed();
  };

  const file = "file" in stage ? stage.file : null;
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid={`service-import-${libraryKind}`}>
      <h2 id={`${id}-title`}>Import from another service</h2>
      <p className="muted">
        Your links from Bitly, Dub, Shlink, YOURLS, Kutt or Rebrandly, from the export each one gives you, become
        dynamic codes that keep their back-half: point your short domain here and every printed code keeps working. The
        clicks counted there are kept in each code&apos;s metadata.
        {libraryKind === "team" ? " New team codes are drafts until an admin approves them." : ""}
      </p>
      <div className={styles.picker}>
        <label htmlFor={`${id}-service`}>Service</label>
        <select
          id={`${id}-service`}
          value={service}
          disabled={busy}
          onChange={(e) => {
            setService(e.target.value as ServiceName);
            setStage({ step: "idle" });
          }}
        >
          {SERVICE_NAMES.map((name) => (
            <option key={name} value={name}>
              {SERVICES[name].label}
            </option>
          ))}
        </select>
        {usable.length > 0 && (
          <NameSelect
            id={`${id}-domain`}
            label="Domain"
            none="This service (/q/)"
            names={usable}
            value={domain}
            disabled={busy}
            onValue={(name) => {
              setDomain(name);
              setStage({ step: "idle" });
            }}
          />
        )}
        <p className="muted" id={`${id}-hint`}>
          The file: {SERVICES[service].export}.
          {domain ? ` Each link keeps its back-half on ${domain}: https://${domain}/<back-half>.` : ""}
        </p>
        <FilePicker
          id={`${id}-file`}
          label="Export file"
          describedBy={`${id}-hint`}
          accept={SERVICES[service].file === "csv" ? ".csv,text/csv" : ".json,application/json"}
          disabled={busy}
          onFile={(chosen) => void choose(chosen)}
        />
      </div>
      <FormError error={fileError} testId="service-import-error" />

      <ImportChecking stage={stage} testId="service-import" rows={links} />

      {file && (
        <div className={styles.ready} data-testid="service-import-ready">
          <p className="notice">
            {file.fileName} ({file.label}): {links(file.rows.length)} to import
            {file.existing > 0 ? `, ${count(file.existing)} imported before` : ""}
            {file.refused.length > 0 ? `, ${count(file.refused.length)} refused (below)` : ""}.
          </p>
          {stage.step === "ready" && file.rows.length > 0 && (
            <button type="button" onClick={() => void start(file)}>
              Import {links(file.rows.length)}
            </button>
          )}
        </div>
      )}
      {file && file.refused.length > 0 && (
        <div className={`notice warning ${styles.refused}`} data-testid="service-import-refused">
          <p className={styles.flush}>
            <strong>{plural(file.refused.length, "row is", "rows are")} not imported:</strong>
          </p>
          <ul className={styles.problems} data-testid="service-import-problems">
            {file.refused.slice(0, LISTED_PROBLEMS).map((p, i) => (
              <li key={`${p.line}-${i}`}>
                {SERVICES[service].file === "csv" ? "Line" : "Link"} {p.line}: {p.error}
              </li>
            ))}
          </ul>
          {file.refused.length > LISTED_PROBLEMS && (
            <p className={styles.flush}>…and {count(file.refused.length - LISTED_PROBLEMS)} more.</p>
          )}
        </div>
      )}

      <ImportOutcome
        stage={stage}
        id={`${id}-progress`}
        testId="service-import"
        rows={links}
        summary={
          stage.step === "finished" &&
          `Done: ${plural(stage.created, "code", "codes")} created${
            stage.replayed > 0 ? `, ${count(stage.replayed)} already created by an earlier try` : ""
          }.`
        }
      />
    </section>
  );
}
