"use client";
// Two-factor authentication on /profile: enable (the secret as a QR code and as text, confirmed
// with a code of the app), the 10 recovery codes shown once, disable with the password.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";
import { CopyButton } from "../ui/CopyButton";

type Setup = { secret: string; uri: string; qrSvg: string };

/** The downloaded file: what the codes are for, one a line. */
const recoveryText = (codes: string[]) =>
  `QR Records recovery codes (each works once in place of an authenticator code)\n\n${codes.join("\n")}\n`;

export function TwoFactorPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.twoFactor.status.queryOptions());
  // The account's activity section shows the change too.
  const changed = {
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries(trpc.twoFactor.status.queryFilter()),
        queryClient.invalidateQueries({ queryKey: trpc.activity.pathKey() }),
      ]),
  };
  const start = useMutation(trpc.twoFactor.start.mutationOptions());
  const confirm = useMutation(trpc.twoFactor.confirm.mutationOptions(changed));
  const disable = useMutation(trpc.twoFactor.disable.mutationOptions(changed));
  const action = useAction();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const begin = () => action.run(async () => setSetup(await start.mutateAsync()));
  const finish = (event: React.FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      setRecoveryCodes((await confirm.mutateAsync({ code })).recoveryCodes);
      setSetup(null);
      setCode("");
    });
  };
  const turnOff = (event: React.FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await disable.mutateAsync({ password });
      setPassword("");
      setRecoveryCodes(null);
    });
  };

  const enabled = status.data?.enabled ?? false;
  return (
    <section className="card" data-testid="two-factor">
      <h2>Two-factor authentication</h2>
      <p className="muted">
        With it on, logging in asks for a code from an authenticator app on your phone as well as your password; a
        recovery code stands in for it when the phone is not at hand.
      </p>
      {recoveryCodes && (
        <div className="notice" data-testid="recovery-codes">
          <p>
            Two-factor authentication is on. These are your recovery codes: each works once. Keep them somewhere safe
            now: they will not be shown again.
          </p>
          <ul className="recovery-codes mono">
            {recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <p className="actions tight">
            <CopyButton text={recoveryCodes.join("\n")} label="Copy codes" />
            <a
              className="button secondary small"
              download="qr-records-recovery-codes.txt"
              href={`data:text/plain;charset=utf-8,${encodeURIComponent(recoveryText(recoveryCodes))}`}
            >
              Download codes
            </a>
          </p>
        </div>
      )}
      {status.data && enabled && (
        <form method="post" onSubmit={turnOff}>
          <p data-testid="two-factor-state">On. {status.data.recoveryCodesLeft} of 10 recovery codes left.</p>
          <label htmlFor="two-factor-password">Password</label>
          <input
            id="two-factor-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => (setPassword(e.target.value), action.clear())}
            required
          />
          <FormError error={action.error} testId="two-factor-error" />
          <p className="actions">
            <button type="submit" className="danger" disabled={action.busy}>
              Disable two-factor authentication
            </button>
          </p>
        </form>
      )}
      {status.data && !enabled && !setup && (
        <>
          <FormError error={action.error} testId="two-factor-error" />
          <p className="actions">
            <button type="button" onClick={begin} disabled={action.busy}>
              Enable two-factor authentication
            </button>
          </p>
        </>
      )}
      {!enabled && setup && (
        <form method="post" onSubmit={finish}>
          <p>
            Scan this code with your authenticator app, or type the secret into it. Then enter the 6 digits it shows.
          </p>
          {/* Our own renderer's SVG (server/images/qrImage.ts) of the otpauth:// address. */}
          <div
            className="totp-qr"
            role="img"
            aria-label="QR code of the two-factor secret"
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
          <p>
            Secret: <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <label htmlFor="two-factor-code">Authentication code</label>
          <input
            id="two-factor-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => (setCode(e.target.value), action.clear())}
            required
          />
          <FormError error={action.error} testId="two-factor-error" />
          <p className="actions">
            <button type="submit" disabled={action.busy}>
              Turn on
            </button>
            <button type="button" className="secondary" onClick={() => (setSetup(null), action.clear())}>
              Cancel
            </button>
          </p>
        </form>
      )}
    </section>
  );
}
