import type { ReactNode } from "react";

type Figures = { label: ReactNode; scans: number; unique: number };

/**
 * Scans and unique scans per row (a day, a code), as a table that scrolls on a phone. With
 * `previousHeading`, each row's counterpart in the previous period beside it (`previous`).
 */
export function ScansTable({
  heading,
  rows,
  previousHeading,
}: {
  heading: string;
  rows: (Figures & { key: string; previous?: Figures })[];
  previousHeading?: string;
}) {
  return (
    <div className="table-scroll">
      <table className="table">
        <thead>
          <tr>
            <th>{heading}</th>
            <th className="num">Scans</th>
            <th className="num">Unique</th>
            {previousHeading && (
              <>
                <th>{previousHeading}</th>
                <th className="num">Scans then</th>
                <th className="num">Unique then</th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <td className={previousHeading ? "nowrap" : undefined}>{r.label}</td>
              <td className="num">{r.scans}</td>
              <td className="num">{r.unique}</td>
              {previousHeading && (
                <>
                  <td className="nowrap">{r.previous?.label}</td>
                  <td className="num">{r.previous?.scans}</td>
                  <td className="num">{r.previous?.unique}</td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
