import type { ReactNode } from "react";

/** Scans and unique scans per row (a day, a code), as a table that scrolls on a phone. */
export function ScansTable({ heading, rows }: { heading: string; rows: { key: string; label: ReactNode; scans: number; unique: number }[] }) {
  return (
    <div className="table-scroll">
      <table className="table">
        <thead>
          <tr>
            <th>{heading}</th>
            <th className="num">Scans</th>
            <th className="num">Unique</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <td>{r.label}</td>
              <td className="num">{r.scans}</td>
              <td className="num">{r.unique}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
