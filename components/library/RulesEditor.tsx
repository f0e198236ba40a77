"use client";
// A dynamic code's rules on the library page (contract: "Dynamic codes that do more"): expiry,
// targets (add, remove, reorder; the OS and device choices are the analytics' own values, the
// country a picker), UTM tags and a password. Saved through the same PATCH as /v1.
import { useState } from "react";
import { COUNTRIES, MAX_TARGETS, TARGET_DEVICES, TARGET_OS, UTM_KEYS } from "@/server/rules/choices";
import type { RouterOutputs } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import type { LibraryMutations } from "./useLibraryMutations";
import { useCodePatch } from "./useCodePatch";
import { UrlInput } from "../ui/UrlInput";
import type { LibraryKind } from "@/server/library/libraryItems";

type LibraryItem = RouterOutputs["library"]["page"]["items"][number];
type Rules = NonNullable<LibraryItem["rules"]>;
type Target = NonNullable<Rules["targets"]>[number];
/** A rule as the form holds it: "" is "any". */
type TargetRow = { url: string; os: string; device: string; country: string };

const rowOf = (t: Target): TargetRow => ({
  url: t.url,
  os: t.os ?? "",
  device: t.device ?? "",
  country: t.country ?? "",
});
const targetOf = (row: TargetRow) => ({
  url: row.url,
  ...(row.os ? { os: row.os as Target["os"] } : {}),
  ...(row.device ? { device: row.device as Target["device"] } : {}),
  ...(row.country ? { country: row.country } : {}),
});

/** epoch seconds ↔ the value of a datetime-local input, in the browser's time zone. */
const toLocalInput = (seconds: number | null) => {
  if (seconds === null) return "";
  const d = new Date(seconds * 1000);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (value: string) => (value ? Math.floor(new Date(value).getTime() / 1000) : null);

export function RulesEditor({
  libraryKind,
  mutations,
  item,
  busy,
  done,
}: {
  libraryKind: LibraryKind;
  mutations: LibraryMutations;
  item: LibraryItem;
  busy: boolean;
  done: () => void;
}) {
  const rules = item.rules!;
  const [expiresAt, setExpiresAt] = useState(toLocalInput(rules.expires_at));
  const [expiredUrl, setExpiredUrl] = useState(rules.expired_url ?? "");
  const [targets, setTargets] = useState<TargetRow[]>((rules.targets ?? []).map(rowOf));
  const [utm, setUtm] = useState<Record<string, string>>(
    Object.fromEntries(UTM_KEYS.map((key) => [key, rules.utm?.[key] ?? ""])),
  );
  const [password, setPassword] = useState("");
  const [removePassword, setRemovePassword] = useState(false);
  const { error, saving, clear, save } = useCodePatch({ libraryKind, mutations, item, done });
  const prefix = `rules-${item.id}`;

  const change = (i: number, field: keyof TargetRow, value: string) =>
    setTargets(targets.map((t, j) => (j === i ? { ...t, [field]: value } : t)));
  const move = (i: number, by: number) => {
    const next = [...targets];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setTargets(next);
  };
  const tags = Object.fromEntries(Object.entries(utm).filter(([, value]) => value !== ""));

  return (
    <form
      method="post"
      className="panel"
      aria-label={`Rules of ${item.name}`}
      onChange={clear}
      onSubmit={(e) => {
        e.preventDefault();
        save({
          expires_at: fromLocalInput(expiresAt),
          expired_url: expiredUrl || null,
          targets: targets.length > 0 ? targets.map(targetOf) : null,
          utm: Object.keys(tags).length > 0 ? tags : null,
          ...(removePassword ? { password: null } : password ? { password } : {}),
        });
      }}
    >
      <fieldset>
        <legend>Targets</legend>
        <p className="muted">
          Tried in order: the first rule whose conditions all match a scan decides where it goes; otherwise the
          destination URL.
        </p>
        {targets.length === 0 && (
          <p className="muted" data-testid={`${prefix}-no-targets`}>
            No rules: every scan goes to the destination URL.
          </p>
        )}
        <ol className="rules">
          {targets.map((target, i) => (
            <li key={i} className="rule" data-testid={`${prefix}-target-${i}`}>
              <div>
                <label htmlFor={`${prefix}-url-${i}`}>Rule {i + 1} URL</label>
                <UrlInput
                  id={`${prefix}-url-${i}`}
                  value={target.url}
                  onValue={(url) => change(i, "url", url)}
                  required
                  placeholder="https://"
                />
              </div>
              <div>
                <label htmlFor={`${prefix}-os-${i}`}>Rule {i + 1} operating system</label>
                <select id={`${prefix}-os-${i}`} value={target.os} onChange={(e) => change(i, "os", e.target.value)}>
                  <option value="">Any</option>
                  {TARGET_OS.map((os) => (
                    <option key={os} value={os}>
                      {os}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label htmlFor={`${prefix}-device-${i}`}>Rule {i + 1} device</label>
                <select
                  id={`${prefix}-device-${i}`}
                  value={target.device}
                  onChange={(e) => change(i, "device", e.target.value)}
                >
                  <option value="">Any</option>
                  {TARGET_DEVICES.map((device) => (
                    <option key={device} value={device}>
                      {device}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label htmlFor={`${prefix}-country-${i}`}>Rule {i + 1} country</label>
                <select
                  id={`${prefix}-country-${i}`}
                  value={target.country}
                  onChange={(e) => change(i, "country", e.target.value)}
                >
                  <option value="">Any</option>
                  {COUNTRIES.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.name} ({c.code})
                    </option>
                  ))}
                </select>
              </div>
              <div className="actions tight">
                <button
                  type="button"
                  className="secondary small"
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                  aria-label={`Move rule ${i + 1} up`}
                >
                  Up
                </button>
                <button
                  type="button"
                  className="secondary small"
                  disabled={i === targets.length - 1}
                  onClick={() => move(i, 1)}
                  aria-label={`Move rule ${i + 1} down`}
                >
                  Down
                </button>
                <button
                  type="button"
                  className="danger small"
                  onClick={() => setTargets(targets.filter((_, j) => j !== i))}
                  aria-label={`Remove rule ${i + 1}`}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="secondary small"
          disabled={targets.length >= MAX_TARGETS}
          onClick={() => setTargets([...targets, { url: "", os: "", device: "", country: "" }])}
        >
          Add rule
        </button>
      </fieldset>

      <fieldset>
        <legend>UTM tags</legend>
        <p className="muted">Added to the URL a scan goes to, unless it already has that parameter.</p>
        <div className="inline-form">
          {UTM_KEYS.map((key) => (
            <div key={key}>
              <label htmlFor={`${prefix}-utm-${key}`}>utm_{key}</label>
              <input
                id={`${prefix}-utm-${key}`}
                value={utm[key]}
                maxLength={100}
                onChange={(e) => setUtm({ ...utm, [key]: e.target.value })}
              />
            </div>
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend>Expiry</legend>
        <label htmlFor={`${prefix}-expires`}>Expires at</label>
        <input
          id={`${prefix}-expires`}
          type="datetime-local"
          value={expiresAt}
          onChange={(e) => setExpiresAt(e.target.value)}
        />
        <label htmlFor={`${prefix}-expired-url`}>After expiry, send scans to</label>
        <UrlInput
          id={`${prefix}-expired-url`}
          value={expiredUrl}
          onValue={setExpiredUrl}
          placeholder="Empty: a page that says the code has expired"
        />
      </fieldset>

      <fieldset>
        <legend>Password</legend>
        <p className="muted" data-testid={`${prefix}-password-state`}>
          {rules.password_protected
            ? "Scans must enter a password first."
            : "No password: anyone who scans goes straight on."}
        </p>
        <label htmlFor={`${prefix}-password`}>
          {rules.password_protected ? "New password for scans" : "Password for scans"}
        </label>
        <input
          id={`${prefix}-password`}
          type="password"
          autoComplete="new-password"
          value={password}
          disabled={removePassword}
          onChange={(e) => setPassword(e.target.value)}
          minLength={4}
          maxLength={128}
        />
        {rules.password_protected && (
          <label className="check">
            <input type="checkbox" checked={removePassword} onChange={(e) => setRemovePassword(e.target.checked)} />{" "}
            Remove the password
          </label>
        )}
      </fieldset>

      <FormError error={error} testId={`rules-error-${item.id}`} />
      <div className="actions">
        <button type="submit" disabled={busy || saving}>
          Save rules
        </button>
        <button type="button" className="secondary" onClick={done}>
          Cancel
        </button>
      </div>
    </form>
  );
}
