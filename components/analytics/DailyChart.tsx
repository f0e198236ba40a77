"use client";
// Scans per day or per hour as a Chart.js bar chart (scans and unique scans), with the same
// numbers in a table for screen readers and for anyone who wants the figures. With `previous`
// (the previous period, as long), its series beside this period's, bar by bar.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from "chart.js";
import { useEffect, useRef } from "react";
import { ScansTable } from "./ScansTable";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

type Point = { label: string; scans: number; unique_scans: number };

/** `per`: what a bar is, a day or an hour (of the page's time zone); `previous`: the same bars of the previous period. */
export function DailyChart({
  points,
  per = "day",
  previous,
}: {
  points: Point[];
  per?: "day" | "hour";
  previous?: Point[];
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      type: "bar",
      data: {
        labels: points.map((d) => d.label),
        datasets: [
          { label: "Scans", data: points.map((d) => d.scans), backgroundColor: "#0b5fff" },
          { label: "Unique scans", data: points.map((d) => d.unique_scans), backgroundColor: "#7aa7ff" },
          ...(previous
            ? [
                { label: "Scans, previous period", data: previous.map((d) => d.scans), backgroundColor: "#98a2b3" },
                {
                  label: "Unique scans, previous period",
                  data: previous.map((d) => d.unique_scans),
                  backgroundColor: "#d0d5dd",
                },
              ]
            : []),
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    return () => chart.destroy();
  }, [points, previous]);
  return (
    <>
      <div className="chart">
        <canvas
          ref={canvas}
          role="img"
          aria-label={`Scans per ${per} from ${points[0]?.label} to ${points.at(-1)?.label}`}
          data-testid="daily-chart"
        />
      </div>
      <details>
        <summary>Every {per} as a table</summary>
        <ScansTable
          heading={per === "day" ? "Day" : "Hour"}
          previousHeading={previous && `${per === "day" ? "Day" : "Hour"} of the previous period`}
          rows={points.map((d, i) => {
            const then = previous?.[i];
            return {
              key: d.label,
              label: d.label,
              scans: d.scans,
              unique: d.unique_scans,
              previous: then && { label: then.label, scans: then.scans, unique: then.unique_scans },
            };
          })}
        />
      </details>
    </>
  );
}
