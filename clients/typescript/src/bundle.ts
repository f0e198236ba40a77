// The bundle (docs/BUNDLE.md of the service): the whole library out as NDJSON, and such a body
// into a library, streamed both ways. The import is sent once, not retried: its body is a stream
// that a retry would have to keep whole, and it is idempotent, so the caller may simply POST it
// again (codes already imported are skipped with their scans).
import type { Client as FetchClient } from "openapi-fetch";
import { apiError } from "./errors";
import type { paths } from "./schema";

type Answer<D> = { data?: D; error?: unknown; response: Response };
type Unwrap = <D>(call: Promise<Answer<D>>) => Promise<D>;
export type BundleCounts = { static: number; dynamic: number; scans: number };
export type BundleImport = { created: BundleCounts; skipped: BundleCounts };
/** A bundle to send: its text, its bytes, or its bytes as they come (a file's stream). */
export type BundleBody = string | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** Where the import is sent (the client's options). */
type Service = { baseUrl: string; apiKey: string; fetch?: typeof globalThis.fetch };

export function bundleCalls(options: Service, api: FetchClient<paths>, unwrap: Unwrap) {
  return {
    /** The library's bundle, as a stream of NDJSON bytes (pipe it to a file). */
    export: async (): Promise<ReadableStream<Uint8Array>> => {
      const body = await unwrap(api.GET("/bundle", { parseAs: "stream" }));
      if (!body) throw new Error("The bundle answered without a body");
      return body as ReadableStream<Uint8Array>;
    },
    /** Imports a bundle into the key's library, all or nothing (an ApiError lists bad or conflicting lines). */
    import: async (bundle: BundleBody): Promise<BundleImport> => {
      const response = await (options.fetch ?? globalThis.fetch)(`${options.baseUrl.replace(/\/+$/, "")}/v1/bundle`, {
        method: "POST",
        headers: { "x-api-key": options.apiKey, "content-type": "application/x-ndjson" },
        // Node's fetch sends a stream or an async iterable of bytes as it reads it.
        body: bundle as BodyInit,
        duplex: "half",
      } as RequestInit);
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the error keeps the text
      }
      if (!response.ok) throw apiError(response, parsed);
      return parsed as BundleImport;
    },
  };
}
