"use client";
// The style editor: colours, error correction and margin with a live preview drawn in the
// browser by the same renderer that serves the saved images.
import { useEffect, useState } from "react";
import type { LibraryKind } from "@/server/domain/libraryItems";
import { contrastProblem, DEFAULT_STYLE, renderSvg } from "@/server/domain/qrImage";
import type { Style } from "@/server/domain/validation";
import type { RouterInputs, RouterOutputs } from "@/trpc/react";
import { FormError } from "./FormError";
import { useAction } from "./useAction";

type Item = RouterOutputs["library"]["page"]["items"][number];

type Props = {
  libraryKind: LibraryKind;
  item: Item;
  /** library.saveStyle (its invalidation reloads the library). */
  saveStyle: (input: RouterInputs["library"]["saveStyle"]) => Promise<unknown>;
  /** Another change of the library is running. */
  busy: boolean;
  done: () => void;
};

export function StyleEditor({ libraryKind, item, saveStyle, busy, done }: Props) {
  const [style, setStyle] = useState<Required<Style>>({ ...DEFAULT_STYLE, ...item.style } as Required<Style>);
  const [preview, setPreview] = useState<string | null>(null);
  const text = item.shortUrl ?? item.url;
  useEffect(() => {
    let current = true;
    void renderSvg(text, style, 192).then((svg) => current && setPreview(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`));
    return () => {
      current = false;
    };
  }, [text, style]);
  // The save's own error, shown at the editor and cleared by the next change.
  const { error, busy: saving, run, clear } = useAction();
  const problem = contrastProblem(style);
  const set = <K extends keyof Style>(key: K, value: Required<Style>[K]) => {
    clear();
    setStyle({ ...style, [key]: value });
  };
  const prefix = `style-${item.id}`;
  return (
    <form
      className="panel style-editor"
      aria-label={`Style of ${item.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          await saveStyle({ scope: libraryKind, kind: item.kind, id: item.id, style });
          done();
        });
      }}
    >
      <div className="style-fields">
        <label htmlFor={`${prefix}-fg`}>Foreground</label>
        <input id={`${prefix}-fg`} type="color" value={style.foreground} onChange={(e) => set("foreground", e.target.value)} />
        <label htmlFor={`${prefix}-bg`}>Background</label>
        <input id={`${prefix}-bg`} type="color" value={style.background} onChange={(e) => set("background", e.target.value)} />
        <label htmlFor={`${prefix}-ec`}>Error correction</label>
        <select id={`${prefix}-ec`} value={style.error_correction} onChange={(e) => set("error_correction", e.target.value as Required<Style>["error_correction"])}>
          <option value="L">L (7% can be damaged)</option>
          <option value="M">M (15%)</option>
          <option value="Q">Q (25%)</option>
          <option value="H">H (30%)</option>
        </select>
        <label htmlFor={`${prefix}-margin`}>Margin (modules)</label>
        <input id={`${prefix}-margin`} type="number" min={0} max={16} value={style.margin} onChange={(e) => set("margin", Number(e.target.value))} />
      </div>
      <figure className="preview">
        {/* eslint-disable-next-line @next/next/no-img-element -- drawn in the browser */}
        {preview && <img src={preview} width={192} height={192} alt="Preview of the styled QR code" data-testid="style-preview" />}
        <figcaption className="muted">Preview</figcaption>
      </figure>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <FormError error={error} testId={`style-error-${item.id}`} />
      <div className="actions">
        <button type="submit" disabled={busy || saving || problem !== null}>Save style</button>
        <button type="button" className="secondary" onClick={done}>Cancel</button>
      </div>
    </form>
  );
}
