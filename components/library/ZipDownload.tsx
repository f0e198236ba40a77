"use client";
// The library's ZIP panel, under its list.
import { useState } from "react";
import type { LibraryKind } from "@/server/library/libraryItems";
import { DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, SIZE_MM, type ImageFormat } from "@/server/images/qrStyle";
import type { ItemKind } from "@/server/teams/teams";

/**
 * One ZIP of the ticked codes' images (or of every code of the search) in a chosen format and
 * size: the same archive as GET /v1/qrcodes/images.zip and /v1/dynqrcodes/images.zip.
 */
export function ZipDownload({
  libraryKind,
  search,
  total,
  selected,
  allOfSearch,
  setAllOfSearch,
}: {
  libraryKind: LibraryKind;
  search: string;
  total: number;
  /** The ticked codes, as `static:<qr_id>` or `dynamic:<code>`. */
  selected: Set<string>;
  allOfSearch: boolean;
  setAllOfSearch: (on: boolean) => void;
}) {
  const [format, setFormat] = useState<ImageFormat>("png");
  const [size, setSize] = useState<number>(DEFAULT_SIZE);
  const [sizeMm, setSizeMm] = useState<number>(SIZE_MM.default);
  const count = allOfSearch ? total : selected.size;
  const ids = (kind: ItemKind) =>
    [...selected].filter((key) => key.startsWith(`${kind}:`)).map((key) => key.slice(kind.length + 1));
  // A PDF is sized in millimetres (vector), the others in pixels.
  const params = new URLSearchParams({
    scope: libraryKind,
    format,
    ...(format === "pdf" ? { size_mm: String(sizeMm) } : { size: String(size) }),
  });
  if (allOfSearch) {
    params.set("all", "1");
    if (search) params.set("search", search);
  } else {
    for (const kind of ["static", "dynamic"] as const) if (ids(kind).length > 0) params.set(kind, ids(kind).join(","));
  }
  const prefix = `${libraryKind}-zip`;
  return (
    <fieldset className="zip-download" data-testid="zip-download">
      <legend>Download images as ZIP</legend>
      <label className="check">
        <input type="checkbox" checked={allOfSearch} onChange={(e) => setAllOfSearch(e.target.checked)} />
        Select all {total} {total === 1 ? "code" : "codes"}
        {search ? ` matching “${search}”` : ""}
      </label>
      <div className="inline-form">
        <div>
          <label htmlFor={`${prefix}-format`}>Format</label>
          <select id={`${prefix}-format`} value={format} onChange={(e) => setFormat(e.target.value as ImageFormat)}>
            <option value="png">PNG</option>
            <option value="svg">SVG</option>
            <option value="pdf">PDF (vector)</option>
          </select>
        </div>
        {format === "pdf" ? (
          <div>
            <label htmlFor={`${prefix}-size-mm`}>Size (mm)</label>
            <input
              id={`${prefix}-size-mm`}
              type="number"
              min={SIZE_MM.min}
              max={SIZE_MM.max}
              step={1}
              value={sizeMm}
              onChange={(e) => setSizeMm(Number(e.target.value))}
            />
          </div>
        ) : (
          <div>
            <label htmlFor={`${prefix}-size`}>Size (px)</label>
            <input
              id={`${prefix}-size`}
              type="number"
              min={MIN_SIZE}
              max={MAX_SIZE}
              step={1}
              value={size}
              onChange={(e) => setSize(Number(e.target.value))}
            />
          </div>
        )}
        {count > 0 ? (
          <a className="button small" href={`/library/images.zip?${params}`} download>
            Download ZIP ({count} {count === 1 ? "code" : "codes"})
          </a>
        ) : (
          <span className="muted">Tick codes in the list above, or select all, to download their images.</span>
        )}
      </div>
    </fieldset>
  );
}
