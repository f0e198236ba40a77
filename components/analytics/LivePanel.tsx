"use client";
// The last 60 minutes of one code's scans, asked for again every few seconds (no reload): a bar
// per minute and the total, with the time of the last answer in the page's time zone.
import { useEffect, useState } from "react";
import { plural } from "../ui/words";

type Live = { total_scans: number; minutes: { minute: string; scans: number }[] };
const REFRESH_MS = 5_000;

export function LivePanel({ code, tz }: { code: string; tz: string }) {
  const [live, setLive] = useState<Live | null>(null);
  const [updated, setUpdated] = useState<Date | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let stopped = false;
    const load = async () => {
      try {
        const r = await fetch(`/analytics/${encodeURIComponent(code)}/live.json`, { cache: "no-store" });
        if (!r.ok) throw new Error(String(r.status));
        const body = (await r.json()) as Live;
        if (stopped) return;
        setLive(body);
        setUpdated(new Date());
        setFailed(false);
      } catch {
        if (!stopped) setFailed(true);
      }
    };
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [code]);
  const top = Math.max(1, ...(live?.minutes.map((m) => m.scans) ?? []));
  const time = (d: Date) =>
    d.toLocaleTimeString("en-GB", { timeZone: tz, hour: "2-digit", minute: "2-digit", second: "2-digit" });
  return (
    <section className="card" aria-live="polite">
      <h2>Last 60 minutes</h2>
      <p>
        <strong data-testid="live-scans">{live ? live.total_scans : "…"}</strong>{" "}
        {live ? (live.total_scans === 1 ? "scan" : "scans") : "scans"} in the last 60 minutes
        {updated && (
          <span className="muted">
            {" "}
            (updated {time(updated)}, every {REFRESH_MS / 1000} seconds)
          </span>
        )}
      </p>
      {failed && <p className="error">Could not refresh: the figures may be out of date.</p>}
      {live && (
        <div
          className="live-bars"
          role="img"
          aria-label={`${plural(live.total_scans, "scan")} in the last 60 minutes, by minute`}
        >
          {live.minutes.map((m) => (
            <span
              key={m.minute}
              className="live-bar"
              style={{ height: `${(m.scans / top) * 100}%` }}
              title={`${time(new Date(m.minute))}: ${plural(m.scans, "scan")}`}
            />
          ))}
        </div>
      )}
    </section>
  );
}
