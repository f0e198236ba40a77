"use client";
// The library's webhook endpoints (contract: "Webhooks"): on /profile for the personal library,
// on /business for the team's (admins). Add (the secret shown once, with a copy button), edit,
// enable or disable, delete, send a test event, and open each endpoint's delivery log
// (DeliveryLog.tsx).
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { EVENT_TYPES } from "@/server/webhooks/event-types";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";
import { UrlInput } from "../ui/UrlInput";
import { DeliveryLog } from "./DeliveryLog";
import { useWebhookMutations, type Mutations, type Scope } from "./useWebhookMutations";

type Webhook = {
  webhook_id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabled_reason: string | null;
};

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
        method="post"
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
          method="post"
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
