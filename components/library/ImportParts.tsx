"use client";
// The pieces the pages' two imports draw alike (CsvImport, ServiceImport): the file picker and
// the progress of the batches.
import styles from "./CsvImport.module.css";
import { progressText } from "./importSteps";

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
export function ImportProgress(props: { id: string; label: string; done: number; total: number; testId: string }) {
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
