// Rotating an endpoint's signing secret (contract: "Webhooks: resend and rotate"): a new secret,
// shown this once and stored sealed as the first one is; the one it replaces is kept (sealed) for
// OVERLAP_SECONDS, during which every delivery carries both signatures (server/webhooks/dispatcher.ts),
// so receivers can switch to the new secret without missing or refusing an event.
import { actorOf, recordActivity } from "../activity";
import { after } from "../platform/clock";
import { db } from "../platform/db";
import type { Actor } from "../library/library";
import { toSeconds } from "../library/validation";
import { findEndpoint, toRecord } from "./endpoints";
import { newSecret } from "./signature";
import { sealSigningSecret } from "./signing-secret";

export const OVERLAP_SECONDS = 24 * 3600;

export async function rotateSigningSecret(actor: Actor, id: string) {
  const row = await findEndpoint(actor, id);
  const secret = newSecret();
  const until = after(OVERLAP_SECONDS);
  const saved = await db.$transaction(async (tx) => {
    // Conditional on the secret read: two rotations at once cannot both keep "the previous" one.
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: row.id, secret: row.secret },
      data: {
        secret: sealSigningSecret(secret),
        previousSecret: row.secret,
        previousSecretUntil: until,
        updatedAt: new Date(),
      },
    });
    if (count === 0) return null;
    if (actor.library.kind === "team")
      await recordActivity(
        {
          teamId: actor.library.teamId,
          actor: await actorOf(actor.userId, tx),
          action: "webhook.secret_rotated",
          target: row.url,
          detail: { webhook_id: row.id, previous_secret_until: toSeconds(until) },
        },
        tx,
      );
    return tx.webhookEndpoint.findUniqueOrThrow({ where: { id: row.id } });
  });
  // Another rotation won the race: this one is the next, over the secret it made.
  if (saved === null) return rotateSigningSecret(actor, id);
  return { webhook: { ...toRecord(saved), secret } };
}
