"use client";
// The style editor: colours, error correction, margin, module and finder shapes, finder
// colour, a logo and a frame, with a live preview drawn by the server's own renderer and
// the same decode check that every save runs: "This design scans" only once it passed.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { LibraryKind } from "@/server/library/libraryItems";
import {
  cheapUnreadableReason,
  DEFAULT_STYLE,
  FINDER_SHAPES,
  FRAME_TEXT_MAX,
  LOGO_SIZE,
  MAX_LOGO_BYTES,
  MAX_LOGO_SHARE,
  MODULE_SHAPES,
  unreadable,
} from "@/server/images/qrStyle";
import type { Style } from "@/server/library/validation";
import { useTRPC, type RouterInputs, type RouterOutputs } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { messageOf, useAction } from "../ui/useAction";
import { BrandKitBar } from "./BrandKitBar";

type Item = RouterOutputs["library"]["page"]["items"][number];

type Props = {
  libraryKind: LibraryKind;
  item: Item;
  /** library.saveStyle (its invalidation reloads the library). */
  saveStyle: (input: RouterInputs["library"]["saveStyle"]) => Promise<unknown>;
  /** Another change of the library is running. */
  busy: boolean;
  done: () => void;
  /** Saving the design as a brand kit: the personal library's owner, a team's admin. */
  canSaveKit: boolean;
};

/** What the form edits: every key with a value (the saved style leaves the defaults out). */
type Draft = {
  foreground: string;
  background: string;
  error_correction: NonNullable<Style["error_correction"]>;
  margin: number;
  module_shape: NonNullable<Style["module_shape"]>;
  finder_shape: NonNullable<Style["finder_shape"]>;
  /** null: the foreground's (until a colour is picked). */
  finder_color: string | null;
  logo: string | null;
  logo_size: number;
  frame_text: string;
  /** null: the foreground's (until a colour is picked). */
  frame_color: string | null;
};

const draftOf = (style: Style): Draft => ({
  ...DEFAULT_STYLE,
  ...style,
  module_shape: style.module_shape ?? "square",
  finder_shape: style.finder_shape ?? "square",
  finder_color: style.finder_color ?? null,
  logo: style.logo ?? null,
  logo_size: style.logo_size ?? LOGO_SIZE.default,
  frame_text: style.frame?.text ?? "",
  frame_color: style.frame?.color ?? null,
});

/** The style to save: the four keys the editor always set, and the others only when they change the drawing. */
function styleOf(draft: Draft): Style {
  const { foreground, background, error_correction, margin } = draft;
  return {
    foreground,
    background,
    error_correction,
    margin,
    ...(draft.module_shape !== "square" ? { module_shape: draft.module_shape } : {}),
    ...(draft.finder_shape !== "square" ? { finder_shape: draft.finder_shape } : {}),
    ...(draft.finder_color && draft.finder_color !== foreground ? { finder_color: draft.finder_color } : {}),
    ...(draft.logo ? { logo: draft.logo, logo_size: draft.logo_size } : {}),
    ...(draft.frame_text.trim() ? { frame: { text: draft.frame_text, color: draft.frame_color ?? foreground } } : {}),
  };
}

const readDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read"));
    reader.readAsDataURL(file);
  });

/** The preview and the server's check of the draft, a moment after the last change. */
function useCheckedPreview(libraryKind: LibraryKind, item: Item, style: Style, skip: boolean) {
  const trpc = useTRPC();
  const preview = useMutation(trpc.library.previewStyle.mutationOptions());
  const [result, setResult] = useState<{ key: string; svg: string | null; problem: string | null } | null>(null);
  const key = JSON.stringify(style);
  const { mutateAsync } = preview;
  useEffect(() => {
    if (skip) return;
    let current = true;
    const timer = setTimeout(() => {
      mutateAsync({ scope: libraryKind, kind: item.kind, id: item.id, style })
        .then((answer) => current && setResult({ key, ...answer }))
        .catch((error: unknown) => current && setResult({ key, svg: null, problem: messageOf(error) }));
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // The key stands for the style: a new object of the same style is no change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, skip, libraryKind, item.kind, item.id, mutateAsync]);
  return result?.key === key ? result : null;
}

export function StyleEditor({ libraryKind, item, saveStyle, busy, done, canSaveKit }: Props) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(item.style));
  // The version the editor opened: a save after another tab's is refused (not the page's refetched one).
  const [loadedAt] = useState(item.updatedAt);
  const [logoError, setLogoError] = useState<string | null>(null);
  const style = styleOf(draft);
  // The reasons found without drawing, on the spot; the server's decode check has the last word.
  const cheap = cheapUnreadableReason(style);
  const problem = cheap && unreadable(cheap);
  const checked = useCheckedPreview(libraryKind, item, style, problem !== null);
  // The save's own error, shown at the editor and cleared by the next change.
  const { error, busy: saving, run, clear } = useAction();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    clear();
    setDraft({ ...draft, [key]: value });
  };
  const chooseLogo = async (file: File | undefined) => {
    setLogoError(null);
    if (!file) return;
    if (file.type !== "image/png" && file.type !== "image/svg+xml") {
      setLogoError("The logo must be a PNG or SVG file");
      return;
    }
    const dataUrl = await readDataUrl(file);
    if (dataUrl.length > MAX_LOGO_BYTES) {
      setLogoError(
        `The logo is too large: at most 64 KiB as a data URL (this file makes ${Math.ceil(dataUrl.length / 1024)} KiB)`,
      );
      return;
    }
    set("logo", dataUrl);
  };
  const prefix = `style-${item.id}`;
  const shown = checked?.svg ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(checked.svg)}` : null;
  return (
    <form
      method="post"
      className="panel style-editor"
      aria-label={`Style of ${item.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          await saveStyle({ scope: libraryKind, kind: item.kind, id: item.id, style, updatedAt: loadedAt });
          done();
        });
      }}
    >
      <BrandKitBar
        libraryKind={libraryKind}
        prefix={prefix}
        style={style}
        canSave={canSaveKit && problem === null}
        onPick={(kit) => {
          clear();
          setDraft(draftOf(kit));
        }}
      />
      <div className="style-fields">
        <label htmlFor={`${prefix}-fg`}>Foreground</label>
        <input
          id={`${prefix}-fg`}
          type="color"
          value={draft.foreground}
          onChange={(e) => set("foreground", e.target.value)}
        />
        <label htmlFor={`${prefix}-bg`}>Background</label>
        <input
          id={`${prefix}-bg`}
          type="color"
          value={draft.background}
          onChange={(e) => set("background", e.target.value)}
        />
        <label htmlFor={`${prefix}-ec`}>Error correction</label>
        <select
          id={`${prefix}-ec`}
          value={draft.error_correction}
          onChange={(e) => set("error_correction", e.target.value as Draft["error_correction"])}
        >
          <option value="L">L (7% can be damaged)</option>
          <option value="M">M (15%)</option>
          <option value="Q">Q (25%)</option>
          <option value="H">H (30%)</option>
        </select>
        <label htmlFor={`${prefix}-margin`}>Margin (modules)</label>
        <input
          id={`${prefix}-margin`}
          type="number"
          min={0}
          max={16}
          value={draft.margin}
          onChange={(e) => set("margin", Number(e.target.value))}
        />
        <label htmlFor={`${prefix}-module`}>Module shape</label>
        <select
          id={`${prefix}-module`}
          value={draft.module_shape}
          onChange={(e) => set("module_shape", e.target.value as Draft["module_shape"])}
        >
          {MODULE_SHAPES.map((shape) => (
            <option key={shape} value={shape}>
              {shape}
            </option>
          ))}
        </select>
        <label htmlFor={`${prefix}-finder`}>Finder shape</label>
        <select
          id={`${prefix}-finder`}
          value={draft.finder_shape}
          onChange={(e) => set("finder_shape", e.target.value as Draft["finder_shape"])}
        >
          {FINDER_SHAPES.map((shape) => (
            <option key={shape} value={shape}>
              {shape}
            </option>
          ))}
        </select>
        <label htmlFor={`${prefix}-finder-color`}>Finder colour</label>
        <input
          id={`${prefix}-finder-color`}
          type="color"
          value={draft.finder_color ?? draft.foreground}
          onChange={(e) => set("finder_color", e.target.value)}
        />
        <label htmlFor={`${prefix}-logo`}>Logo (PNG or SVG, up to 64 KiB)</label>
        <input
          id={`${prefix}-logo`}
          type="file"
          accept="image/png,image/svg+xml"
          onChange={(e) => void chooseLogo(e.target.files?.[0])}
        />
        {draft.logo && (
          <>
            <label htmlFor={`${prefix}-logo-size`}>Logo size (% of the code, at most {MAX_LOGO_SHARE})</label>
            <input
              id={`${prefix}-logo-size`}
              type="number"
              min={LOGO_SIZE.min}
              max={LOGO_SIZE.max}
              value={draft.logo_size}
              onChange={(e) => set("logo_size", Number(e.target.value))}
            />
            <p className="muted">With a logo, error correction is H.</p>
            <button type="button" className="secondary" onClick={() => set("logo", null)}>
              Remove logo
            </button>
          </>
        )}
        <FormError error={logoError} testId={`logo-error-${item.id}`} />
        <label htmlFor={`${prefix}-frame-text`}>Frame text</label>
        <input
          id={`${prefix}-frame-text`}
          type="text"
          maxLength={FRAME_TEXT_MAX}
          placeholder="Scan me"
          value={draft.frame_text}
          onChange={(e) => set("frame_text", e.target.value)}
        />
        <label htmlFor={`${prefix}-frame-color`}>Frame colour</label>
        <input
          id={`${prefix}-frame-color`}
          type="color"
          value={draft.frame_color ?? draft.foreground}
          onChange={(e) => set("frame_color", e.target.value)}
        />
      </div>
      <figure className="preview">
        {/* eslint-disable-next-line @next/next/no-img-element -- drawn by the server's renderer */}
        {shown && <img src={shown} width={192} alt="Preview of the styled QR code" data-testid="style-preview" />}
        <figcaption className="muted">Preview</figcaption>
      </figure>
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : (
        <p className={checked?.problem ? "error" : "muted"} role="status" data-testid={`style-check-${item.id}`}>
          {checked === null ? "Checking that the design scans…" : (checked.problem ?? "This design scans")}
        </p>
      )}
      <FormError error={error} testId={`style-error-${item.id}`} />
      <div className="actions">
        <button type="submit" disabled={busy || saving || problem !== null}>
          Save style
        </button>
        <button type="button" className="secondary" onClick={done}>
          Cancel
        </button>
      </div>
    </form>
  );
}
