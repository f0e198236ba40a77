"use client";
// The pieces the pages' two imports draw alike (CsvImport, ServiceImport): the file picker, the
// check's status, and the batches' progress with how the import stopped or ended.
import type { ReactNode } from "react";
import styles from "./CsvImport.module.css";
import { count, progressText } from "./importSteps";

/** A file being imported, as its status shows it. */
type Imported = { fileName: string; rows: unknown[] };
/** The stages of either import, as far as its status shows them. */
export type ShownStage =
  | { step: "idle" | "refused" | "ready" }
  | { step: "checking"; fileName: string; checked: number; total: number }
  | { step: "importing"; file: Imported; done: number }
  | { step: "stopped"; file: Imported; done: number; error: string }
  | { step: "finished"; file: Imported };

/** A labelled file input; the same file chosen again is a new choice. */
export function FilePicker(props: {
  id: string;
  label: string;
  accept: string;
  disabled: boolean;
  describedBy?: string;
  onFile: (file: File) => void;
}) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="file"
        accept={props.accept}
        aria-describedby={props.describedBy}
        disabled={props.disabled}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (file) props.onFile(file);
        }}
      />
    </>
  );
}

/** The batches' progress: a bar and its figures (`testId` and `<testId>-text`). */
function ImportProgress(props: { id: string; label: string; done: number; total: number; testId: string }) {
  return (
    <div className={styles.progress}>
      <label htmlFor={props.id}>{props.label}</label>
      <progress id={props.id} max={props.total} value={props.done} data-testid={props.testId} />
      <p role="status" data-testid={`${props.testId}-text`}>
        {progressText(props.done, props.total)}
      </p>
    </div>
  );
}

/** While the server checks the file: "Checking <file>: n of <rows>…" (`<testId>-checking`). */
export function ImportChecking(props: { stage: ShownStage; testId: string; rows: (n: number) => string }) {
  const { stage } = props;
  if (stage.step !== "checking") return null;
  return (
    <p role="status" data-testid={`${props.testId}-checking`}>
      Checking {stage.fileName}: {count(stage.checked)} of {props.rows(stage.total)}…
    </p>
  );
}

/**
 * Once the batches go: their progress (`<testId>-progress`), then where the import stopped and how
 * to go on (`<testId>-stopped`), or `summary` once it is done (`<testId>-summary`).
 */
export function ImportOutcome(props: {
  stage: ShownStage;
  id: string;
  testId: string;
  rows: (n: number) => string;
  summary: ReactNode;
}) {
  const { stage } = props;
  if (stage.step !== "importing" && stage.step !== "stopped" && stage.step !== "finished") return null;
  const total = stage.file.rows.length;
  return (
    <>
      <ImportProgress
        id={props.id}
        label={`${stage.step === "finished" ? "Imported" : "Importing"} ${stage.file.fileName}`}
        done={stage.step === "finished" ? total : stage.done}
        total={total}
        testId={`${props.testId}-progress`}
      />
      {stage.step === "stopped" && (
        <p className="error" role="alert" data-testid={`${props.testId}-stopped`}>
          The import stopped after {count(stage.done)} of {props.rows(total)} ({stage.error}). Choose the same file
          again to go on: what was created is not created again.
        </p>
      )}
      {stage.step === "finished" && (
        <p className="notice" data-testid={`${props.testId}-summary`}>
          {props.summary}
        </p>
      )}
    </>
  );
}
