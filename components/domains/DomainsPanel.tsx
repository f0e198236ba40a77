"use client";
// The library's custom domains (docs/DOMAINS.md): on /profile for the personal library, on
// /business for the team's (admins). Add a domain, see the TXT record to create (name and value,
// each copyable), re-check it, see it verified, delete it (refused while codes use it).
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { CopyButton } from "../ui/CopyButton";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";

type Scope = "personal" | "team";
type DomainRecord = {
  domain: string;
  verified: boolean;
  verification: { type: string; name: string; value: string };
};

export function DomainsPanel({ scope }: { scope: Scope }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const changed = { onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.domains.pathKey() }) };
  const list = useQuery(trpc.domains.list.queryOptions({ scope }));
  const create = useMutation(trpc.domains.create.mutationOptions(changed));
  const adding = useAction();
  const [domain, setDomain] = useState("");
  const domains = list.data?.domains ?? [];
  return (
    <section className="card" data-testid="domains" aria-labelledby={`${scope}-domains-title`}>
      <h2 id={`${scope}-domains-title`}>Custom domains</h2>
      <p className="muted">
        Put your dynamic codes on your own domain (<code>https://go.example.com/menu</code>): add it, create the TXT
        record shown at your DNS host, then re-check. Point the domain at this service too.
      </p>
      {list.error && <p className="error">{list.error.message}</p>}
      {domains.length === 0
        ? list.isSuccess && <p className="muted">No domains yet.</p>
        : domains.map((d) => <DomainRow key={d.domain} scope={scope} record={d} />)}
      <form
        method="post"
        className="inline-form"
        onChange={adding.clear}
        onSubmit={(e) => {
          e.preventDefault();
          void adding.run(async () => {
            await create.mutateAsync({ scope, body: { domain } });
            setDomain("");
          });
        }}
      >
        <div>
          <label htmlFor={`${scope}-domain-new`}>Domain</label>
          <input
            id={`${scope}-domain-new`}
            value={domain}
            onChange={(e) => setDomain(e.target.value)}
            placeholder="go.example.com"
            maxLength={253}
            required
          />
        </div>
        <button type="submit" disabled={adding.busy}>
          Add domain
        </button>
        <FormError error={adding.error} testId="domain-error" className="full" />
      </form>
    </section>
  );
}

function DomainRow({ scope, record }: { scope: Scope; record: DomainRecord }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const changed = { onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.domains.pathKey() }) };
  const verify = useMutation(trpc.domains.verify.mutationOptions(changed));
  const remove = useMutation(trpc.domains.remove.mutationOptions(changed));
  const row = useAction();
  const { name, value } = record.verification;
  return (
    <div className="domain-item" data-testid={`domain-${record.domain}`}>
      <div>
        <strong className="mono wrap">{record.domain}</strong>{" "}
        <span className={record.verified ? "badge active" : "badge draft"} data-testid="domain-state">
          {record.verified ? "verified" : "not verified"}
        </span>
      </div>
      {!record.verified && (
        <dl className="facts">
          <dt>Record type</dt>
          <dd>TXT</dd>
          <dt>Name</dt>
          <dd>
            <code className="wrap" data-testid="domain-txt-name">
              {name}
            </code>{" "}
            <CopyButton text={name} label="Copy name" />
          </dd>
          <dt>Value</dt>
          <dd>
            <code className="wrap" data-testid="domain-txt-value">
              {value}
            </code>{" "}
            <CopyButton text={value} label="Copy value" />
          </dd>
        </dl>
      )}
      <span className="actions tight">
        {!record.verified && (
          <button
            type="button"
            disabled={row.busy}
            onClick={() => void row.run(() => verify.mutateAsync({ scope, domain: record.domain }))}
          >
            Re-check
          </button>
        )}
        <button
          type="button"
          className="secondary"
          disabled={row.busy}
          aria-label={`Delete ${record.domain}`}
          onClick={() => void row.run(() => remove.mutateAsync({ scope, domain: record.domain }))}
        >
          Delete
        </button>
      </span>
      <FormError error={row.error} testId="domain-row-error" />
    </div>
  );
}
