// The analytics page's comparison with the previous period (as long, immediately before): the
// totals of both side by side and the change in per cent. A range breaks only between its dates,
// so that on a phone the table, change column included, fits the screen.
import { changeOf } from "@/server/analytics/analyticsPeriods";
import type { DayRange } from "@/server/analytics/calendarDays";

type Totals = DayRange & { total_scans: number; unique_scans: number };

const percent = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 0, signDisplay: "exceptZero" });

/** "+33%", "-50%", "0%"; "new" when the previous period had none to compare with. */
function change(after: number, before: number): string {
  const fraction = changeOf(after, before);
  return fraction === null ? "new" : percent.format(fraction);
}

export function PeriodComparison({ current, previous }: { current: Totals; previous: Totals }) {
  const rows = [
    { id: "total-scans", name: "Scans", now: current.total_scans, before: previous.total_scans },
    { id: "unique-scans", name: "Unique scans", now: current.unique_scans, before: previous.unique_scans },
  ];
  return (
    <div className="table-scroll" data-testid="comparison">
      <table className="table">
        <caption className="muted start">Compared with the previous period, as long and just before this one</caption>
        <thead>
          <tr>
            <th />
            <th className="num">
              This period{" "}
              <span className="muted">
                <span className="nowrap">{current.from}</span> to <span className="nowrap">{current.to}</span>
              </span>
            </th>
            <th className="num">
              Previous period{" "}
              <span className="muted" data-testid="previous-range">
                <span className="nowrap">{previous.from}</span> to <span className="nowrap">{previous.to}</span>
              </span>
            </th>
            <th className="num">Change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.name}</th>
              <td className="num">{r.now}</td>
              <td className="num" data-testid={`previous-${r.id}`}>
                {r.before}
              </td>
              <td className="num" data-testid={`change-${r.id}`}>
                {change(r.now, r.before)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
