"use client";
import { useState } from "react";
import { KeyPanel, type KeyView } from "./KeyPanel";
import { trpc } from "./trpc";

export type KeyInfo = { tier: string; key: KeyView | null };

export function PersonalKeyPanel({ initial }: { initial: KeyInfo }) {
  const [info, setInfo] = useState<KeyInfo>(initial);
  const canUseApi = info.tier === "pro" || info.tier === "business";
  return (
    <KeyPanel
      title="Personal API key"
      intro={
        <>
          The key acts on your personal library through the API under <code>/v1</code>. Send it in the <code>x-api-key</code> header.
        </>
      }
      refusal={
        canUseApi ? null : (
          <>
            API access is part of the Pro and Business plans. Your plan is <strong>{info.tier}</strong>: upgrade to generate a key.
          </>
        )
      }
      current={info.key}
      generateLabel="Generate API key"
      revokeLabel="Revoke API key"
      generate={() => trpc.keys.generatePersonal.mutate()}
      revoke={() => trpc.keys.revokePersonal.mutate()}
      refresh={async () => setInfo(await trpc.keys.personal.query())}
    />
  );
}
