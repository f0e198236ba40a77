// The endpoints' signing secrets, stored sealed (server/platform/secrets.ts, as the two-factor secrets
// are): a copy of the database, or a look at it, does not let anyone sign deliveries. They are
// sealed under a key derived from NEXTAUTH_SECRET, so that secret must be kept with the
// database (data/secrets.json on the embedded one): under another, no endpoint's secret can be
// read, and the dispatcher disables each endpoint with the reason (create it again).
import { db } from "../platform/db";
import { logError } from "../platform/log";
import { seal, unseal } from "../platform/secrets";

const PURPOSE = "webhook-secret";
/** How a secret stored before sealing begins (as given to its owner). */
const PLAIN = "whsec_";

export const sealSigningSecret = (secret: string): string => seal(PURPOSE, secret);

/** The `whsec_…` secret a stored value holds, or null when it cannot be opened. */
export function openSigningSecret(stored: string): string | null {
  // A row from before sealing, until the pass below seals it.
  if (stored.startsWith(PLAIN)) return stored;
  try {
    return unseal(PURPOSE, stored);
  } catch (error) {
    logError("webhooks.secret_unreadable", {}, error);
    return null;
  }
}

/**
 * Seals the secrets stored in plain text (rows written before sealing), once, when the
 * dispatcher starts. Each row is changed only if it still holds that plain secret, so
 * instances starting together seal it once.
 */
export async function sealPlainSigningSecrets(): Promise<number> {
  const rows = await db.webhookEndpoint.findMany({
    where: { secret: { startsWith: PLAIN } },
    select: { id: true, secret: true },
  });
  let sealed = 0;
  for (const row of rows)
    sealed += (
      await db.webhookEndpoint.updateMany({
        where: { id: row.id, secret: row.secret },
        data: { secret: sealSigningSecret(row.secret) },
      })
    ).count;
  return sealed;
}
