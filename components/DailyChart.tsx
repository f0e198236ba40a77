"use client";
// Scans per day as a Chart.js bar chart (scans and unique scans), with the same numbers in a
// table for screen readers and for anyone who wants the figures.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from "chart.js";
import { useEffect, useRef } from "react";
import { ScansTable } from "./ScansTable";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

type Day = { date: string; scans: number; unique_scans: number };

export function DailyChart({ daily }: { daily: Day[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      type: "bar",
      data: {
        labels: daily.map((d) => d.date),
        datasets: [
          { label: "Scans", data: daily.map((d) => d.scans), backgroundColor: "#0b5fff" },
          { label: "Unique scans", data: daily.map((d) => d.unique_scans), backgroundColor: "#7aa7ff" },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    return () => chart.destroy();
  }, [daily]);
  return (
    <>
      <div className="chart">
        <canvas ref={canvas} role="img" aria-label={`Scans per day from ${daily[0]?.date} to ${daily.at(-1)?.date}`} data-testid="daily-chart" />
      </div>
      <details>
        <summary>Every day as a table</summary>
        <ScansTable heading="Day" rows={daily.map((d) => ({ key: d.date, label: d.date, scans: d.scans, unique: d.unique_scans }))} />
      </details>
    </>
  );
}
