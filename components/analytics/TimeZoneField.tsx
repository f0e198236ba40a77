"use client";
// The analytics pages' time zone: a selector of IANA zones (the server's list, so that server
// and browser render the same options), and, when the address names none, the browser's own
// zone put into the address (a replace, not a new history entry), so the figures follow it.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";

export function TimeZoneField({ value, zones, fromBrowser }: { value: string; zones: string[]; fromBrowser: boolean }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  useEffect(() => {
    if (!fromBrowser) return;
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!browser || browser === value) return;
    const next = new URLSearchParams(params.toString());
    next.set("tz", browser);
    router.replace(`${pathname}?${next.toString()}`);
  }, [fromBrowser, value, params, pathname, router]);
  return (
    <div>
      <label htmlFor="tz">Time zone</label>
      <select id="tz" name="tz" defaultValue={value} key={value} data-testid="time-zone-select">
        {(zones.includes(value) ? zones : [value, ...zones]).map((z) => (
          <option key={z} value={z}>
            {z.replaceAll("_", " ")}
          </option>
        ))}
      </select>
    </div>
  );
}
