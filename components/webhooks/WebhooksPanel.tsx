"use client";
// The library's webhook endpoints (contract: "Webhooks"): on /profile for the personal library,
// on /business for the team's (admins). Add (the secret shown once, with a copy button), edit,
// enable or disable, delete, send a test event, and each endpoint's delivery log with every
// last attempt's status, latency and the first 1 KiB of the answer, and "Resend".
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { EVENT_TYPES } from "@/server/webhooks/event-types";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";
import { UrlInput } from "../ui/UrlInput";

type Scope = "personal" | "team";
type Webhook = {
  webhook_id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabled_reason: string | null;
};

const seconds = (s: number | null) => (s === null ? "—" : new Date(s * 1000).toLocaleString());

function useWebhookMutations(scope: Scope) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const changed = { onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }) };
  return {
    create: useMutation(trpc.webhooks.create.mutationOptions(changed)),
    update: useMutation(trpc.webhooks.update.mutationOptions(changed)),
    remove: useMutation(trpc.webhooks.remove.mutationOptions(changed)),
    test: useMutation(trpc.webhooks.test.mutationOptions(changed)),
    resend: useMutation(trpc.webhooks.resend.mutationOptions(changed)),
    scope,
  };
}
type Mutations = ReturnType<typeof useWebhookMutations>;

/** URL, description and events: the add form and each endpoint's edit form. */
function EndpointFields(props: {
  id: string;
  value: Omit<Webhook, "webhook_id" | "enabled" | "disabled_reason">;
  onChange: (v: Omit<Webhook, "webhook_id" | "enabled" | "disabled_reason">) => void;
}) {
  const { value, onChange } = props;
  const toggle = (event: string) =>
    onChange({
      ...value,
      events: value.events.includes(event) ? value.events.filter((e) => e !== event) : [...value.events, event],
    });
  return (
    <>
      <div>
        <label htmlFor={`${props.id}-url`}>Endpoint URL</label>
        <UrlInput
          id={`${props.id}-url`}
          placeholder="https://example.com/hooks/qr"
          value={value.url}
          onValue={(url) => onChange({ ...value, url })}
          required
        />
      </div>
      <div>
        <label htmlFor={`${props.id}-description`}>Description</label>
        <input
          id={`${props.id}-description`}
          value={value.description}
          maxLength={500}
          onChange={(e) => onChange({ ...value, description: e.target.value })}
        />
      </div>
      <fieldset className="full events">
        <legend>Events</legend>
        {EVENT_TYPES.map((event) => (
          <label key={event} className="check">
            <input type="checkbox" checked={value.events.includes(event)} onChange={() => toggle(event)} />{" "}
            <code>{event}</code>
          </label>
        ))}
      </fieldset>
    </>
  );
}

export function WebhooksPanel({ scope }: { scope: Scope }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.webhooks.list.queryOptions({ scope }));
  const mutations = useWebhookMutations(scope);
  const adding = useAction();
  const [draft, setDraft] = useState({ url: "", description: "", events: ["dynqrcode.created"] as string[] });
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [open, setOpen] = useState<string | null>(null);

  const add = () =>
    adding.run(async () => {
      const { webhook } = await mutations.create.mutateAsync({ scope, body: draft });
      setSecret(webhook.secret);
      setCopied(false);
      setDraft({ url: "", description: "", events: ["dynqrcode.created"] });
    });

  const webhooks = list.data?.webhooks ?? [];
  return (
    <section className="card" data-testid="webhooks">
      <h2>Webhooks</h2>
      <p className="muted">
        Each event is POSTed to your endpoint as JSON, signed as Standard Webhooks (<code>webhook-id</code>,{" "}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>) with the endpoint&apos;s secret, and retried for
        about a day and a half until it answers 2xx within 10 s.
      </p>
      {list.error && <p className="error">{list.error.message}</p>}
      {secret && (
        <div className="notice">
          <p>This is the endpoint&apos;s signing secret. Copy it now: it will not be shown again.</p>
          <div className="key-box">
            <code data-testid="webhook-secret">{secret}</code>
            <button
              type="button"
              className="secondary"
              onClick={async () => {
                await navigator.clipboard.writeText(secret).catch(() => undefined);
                setCopied(true);
              }}
            >
              {copied ? "Copied" : "Copy secret"}
            </button>
          </div>
        </div>
      )}
      {webhooks.length === 0 ? (
        list.isSuccess && <p className="muted">No endpoints yet.</p>
      ) : (
        <ul className="webhook-list">
          {webhooks.map((w) => (
            <EndpointRow
              key={w.webhook_id}
              webhook={w}
              mutations={mutations}
              open={open === w.webhook_id}
              toggle={() => setOpen(open === w.webhook_id ? null : w.webhook_id)}
            />
          ))}
        </ul>
      )}
      <form
        className="inline-form"
        onChange={adding.clear}
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <EndpointFields id="webhook-new" value={draft} onChange={setDraft} />
        <button type="submit" disabled={adding.busy}>
          Add endpoint
        </button>
        <FormError error={adding.error} testId="webhook-error" className="full" />
      </form>
    </section>
  );
}

function EndpointRow({
  webhook,
  mutations,
  open,
  toggle,
}: {
  webhook: Webhook;
  mutations: Mutations;
  open: boolean;
  toggle: () => void;
}) {
  const { scope } = mutations;
  const row = useAction();
  const [editing, setEditing] = useState<Omit<Webhook, "webhook_id" | "enabled" | "disabled_reason"> | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const id = webhook.webhook_id;
  return (
    <li className="item webhook" data-testid={`webhook-${webhook.url}`}>
      <div className="webhook-head">
        <div>
          <div className="mono wrap">{webhook.url}</div>
          {webhook.description && <div className="muted">{webhook.description}</div>}
          <div className="muted small-text">{webhook.events.join(", ")}</div>
          <div data-testid="webhook-state">
            {webhook.enabled ? "Enabled" : `Disabled${webhook.disabled_reason ? `: ${webhook.disabled_reason}` : ""}`}
          </div>
        </div>
        <span className="actions tight">
          <button
            type="button"
            className="secondary"
            disabled={row.busy || !webhook.enabled}
            onClick={() =>
              void row.run(async () => setSent((await mutations.test.mutateAsync({ scope, webhook_id: id })).event_id))
            }
          >
            Send test event
          </button>
          <button
            type="button"
            className="secondary"
            disabled={row.busy}
            onClick={() =>
              void row.run(() =>
                mutations.update.mutateAsync({ scope, body: { webhook_id: id, enabled: !webhook.enabled } }),
              )
            }
          >
            {webhook.enabled ? "Disable" : "Enable"}
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() =>
              setEditing(
                editing ? null : { url: webhook.url, description: webhook.description, events: webhook.events },
              )
            }
          >
            Edit
          </button>
          <button type="button" className="secondary" aria-expanded={open} onClick={toggle}>
            Deliveries
          </button>
          <button
            type="button"
            className="danger"
            disabled={row.busy}
            onClick={() => {
              if (window.confirm(`Delete the endpoint ${webhook.url} and its delivery log?`))
                void row.run(() => mutations.remove.mutateAsync({ scope, webhook_id: id }));
            }}
          >
            Delete
          </button>
        </span>
      </div>
      {sent && (
        <p className="muted" data-testid="webhook-test-sent">
          Test event {sent} queued.
        </p>
      )}
      <FormError error={row.error} testId="webhook-row-error" />
      {editing && (
        <form
          className="inline-form panel"
          onChange={row.clear}
          onSubmit={(e) => {
            e.preventDefault();
            void row.run(async () => {
              await mutations.update.mutateAsync({ scope, body: { webhook_id: id, ...editing } });
              setEditing(null);
            });
          }}
        >
          <EndpointFields id={`webhook-${id}`} value={editing} onChange={setEditing} />
          <span className="actions tight full">
            <button type="submit" disabled={row.busy}>
              Save endpoint
            </button>
            <button type="button" className="secondary" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </span>
        </form>
      )}
      {open && <DeliveryLog webhookId={id} mutations={mutations} />}
    </li>
  );
}

/** The endpoint's last 100 deliveries, newest first, refreshed every 2 s while open. */
function DeliveryLog({ webhookId, mutations }: { webhookId: string; mutations: Mutations }) {
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
