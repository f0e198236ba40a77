// Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
// "<webhook-id>.<webhook-timestamp>.<body>", keyed with the base64-decoded part of the secret
// after "whsec_", sent as "v1,<base64>". Receivers verify with any Standard Webhooks library.
import { createHmac, randomBytes } from "node:crypto";

export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export function signatureHeaders(
  secret: string,
  eventId: string,
  body: string,
  timestampSeconds: number,
): Record<string, string> {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`${eventId}.${timestampSeconds}.${body}`).digest("base64");
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": `v1,${signature}`,
  };
}
