"use client";
// An endpoint's delivery log, opened under its row of the webhooks panel: every last attempt's
// status, latency and the first 1 KiB of the answer, and "Resend".
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";
import type { Mutations } from "./useWebhookMutations";

const seconds = (s: number | null) => (s === null ? "—" : new Date(s * 1000).toLocaleString());

/** The endpoint's last 100 deliveries, newest first, refreshed every 2 s while open. */
export function DeliveryLog({ webhookId, mutations }: { webhookId: string; mutations: Mutations }) {
  const trpc = useTRPC();
  const { scope } = mutations;
  const log = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ scope, webhook_id: webhookId }),
    refetchInterval: 2000,
  });
  const resending = useAction();
  const deliveries = log.data?.deliveries ?? [];
  return (
    <div className="panel" data-testid="delivery-log">
      <h3>Deliveries</h3>
      <FormError error={resending.error ?? log.error?.message ?? null} testId="delivery-error" />
      {deliveries.length === 0 ? (
        <p className="muted">{log.isSuccess ? "Nothing delivered yet." : "Loading…"}</p>
      ) : (
        <div className="table-scroll">
          <table className="table stack">
            <thead>
              <tr>
                <th>Event</th>
                <th>Status</th>
                <th>Attempts</th>
                <th>Answer</th>
                <th>Latency</th>
                <th>Last attempt</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.id} data-testid="delivery">
                  <td data-label="Event">
                    <code className="nowrap">{d.type}</code>
                    <div className="muted small-text mono">{d.event_id}</div>
                  </td>
                  <td data-label="Status" data-testid="delivery-status">
                    {d.status}
                    {d.status === "pending" && d.next_attempt_at !== null && d.attempts > 0 && (
                      <div className="muted small-text">next {seconds(d.next_attempt_at)}</div>
                    )}
                  </td>
                  <td data-label="Attempts">{d.attempts}</td>
                  <td data-label="Answer">
                    <span data-testid="delivery-response-status">
                      {d.response_status ?? (d.attempts > 0 ? "no answer" : "—")}
                    </span>
                    {d.response_body && (
                      <details>
                        <summary>First 1 KiB</summary>
                        <pre className="answer-body">{d.response_body}</pre>
                      </details>
                    )}
                  </td>
                  <td data-label="Latency" className="nowrap">
                    {d.latency_ms === null ? "—" : `${d.latency_ms} ms`}
                  </td>
                  <td data-label="Last attempt" className="nowrap">
                    {seconds(d.last_attempt_at)}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      disabled={resending.busy}
                      onClick={() =>
                        void resending.run(() =>
                          mutations.resend.mutateAsync({ scope, webhook_id: webhookId, delivery_id: d.id }),
                        )
                      }
                    >
                      Resend
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
