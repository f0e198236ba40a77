// Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
// "<webhook-id>.<webhook-timestamp>.<body>", keyed with the base64-decoded part of the secret
// after "whsec_", sent as "v1,<base64>". Receivers verify with any Standard Webhooks library.
// During a rotation's overlap there are two secrets: "v1,<new> v1,<old>", space-separated, as
// the standard allows, so a receiver holding either verifies.
import { createHmac, randomBytes } from "node:crypto";

export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export function signatureHeaders(
  secrets: string[],
  eventId: string,
  body: string,
  timestampSeconds: number,
): Record<string, string> {
  const signed = `${eventId}.${timestampSeconds}.${body}`;
  const signature = secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice("whsec_".length), "base64");
      return `v1,${createHmac("sha256", key).update(signed).digest("base64")}`;
    })
    .join(" ");
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signature,
  };
}
