// A typed client (clients/typescript) for the client's tests (client and client-operations
// .integration.test.ts), against the run's server, that records every attempt it sends.
import { createClient, type ClientOptions } from "../../clients/typescript/src";
import { BASE_URL } from "../helpers";

type Sent = { method: string; path: string; status: number; idempotencyKey: string | null; at: number };

/** A client whose every attempt (retries included) is recorded. */
export function recordingClient(apiKey: string, options: Partial<ClientOptions> = {}) {
  const sent: Sent[] = [];
  const client = createClient({
    baseUrl: BASE_URL,
    apiKey,
    ...options,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      sent.push({
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        idempotencyKey: request.headers.get("idempotency-key"),
        at: Date.now(),
      });
      return response;
    },
  });
  return { client, sent };
}
