// The typed client: openapi-fetch over the generated types of /v1 (src/schema.d.ts), with the
// helpers every caller needs: 429/503 retried after Retry-After, an Idempotency-Key on every
// write (made once per call, the same on its retries), cursor iteration, typed exceptions.
import { randomUUID } from "node:crypto";
import createFetchClient, { type Middleware } from "openapi-fetch";
import { apiError, retryAfterSeconds } from "./errors";
import { bundleCalls } from "./bundle";
import { recordCalls } from "./records";
import type { components, operations, paths } from "./schema";

export type StaticQrCode = components["schemas"]["StaticQrCode"];
export type DynamicQrCode = components["schemas"]["DynamicQrCode"];
export type Webhook = components["schemas"]["Webhook"];
export type AnalyticsSummary = components["schemas"]["AnalyticsSummary"];
export type CodeAnalytics = components["schemas"]["CodeAnalytics"];

/** The lists' filters and sort (README "How /v1 works"); a page size of at most 100. */
type ListOptions<Query> = Omit<NonNullable<Query>, "limit" | "cursor"> & { pageSize?: number };
export type StaticListOptions = ListOptions<operations["qrcodes-list"]["parameters"]["query"]>;
export type DynamicListOptions = ListOptions<operations["dynqrcodes-list"]["parameters"]["query"]>;

export type RetryOptions = {
  /** Attempts per call, the first included (default 5). */
  attempts?: number;
  /** A Retry-After longer than this (seconds) is not waited for: the call fails at once (default 60; a spent daily quota says hours). */
  maxWaitSeconds?: number;
  /** Wait when an answer to retry has no Retry-After, seconds (default 1). */
  defaultWaitSeconds?: number;
};

export type ClientOptions = {
  /** The service's base URL, such as https://qr.example.com (the client adds /v1). */
  baseUrl: string;
  apiKey: string;
  retry?: RetryOptions;
  /** Told about each retry before its wait (for progress output and logs). */
  onRetry?: (info: {
    status: number | null;
    attempt: number;
    waitSeconds: number;
    method: string;
    url: string;
  }) => void;
  fetch?: typeof globalThis.fetch;
};

const WRITES = new Set(["POST", "PATCH", "DELETE"]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether an answer is worth another attempt: 429 and 503 always (the gate and the database
 * say when), 409 when our own Idempotency-Key is still running (an earlier attempt, or an
 * interrupted earlier run, is finishing).
 */
const retryable = (status: number, request: Request) =>
  status === 429 || status === 503 || (status === 409 && request.headers.has("idempotency-key"));

/** A fetch that sends a request again after 429/503 (waiting Retry-After) or a dropped connection, a bounded number of times. */
function retryingFetch(options: ClientOptions): (request: Request) => Promise<Response> {
  const { attempts = 5, maxWaitSeconds = 60, defaultWaitSeconds = 1 } = options.retry ?? {};
  const send = options.fetch ?? globalThis.fetch;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      let response: Response | null = null;
      try {
        response = await send(request.clone());
      } catch (error) {
        // A connection refused or reset: safe to send again, as reads change nothing and every write carries its Idempotency-Key.
        if (attempt >= attempts) throw error;
      }
      if (response && (!retryable(response.status, request) || attempt >= attempts)) return response;
      const wait = response
        ? (retryAfterSeconds(response) ?? defaultWaitSeconds)
        : Math.min(defaultWaitSeconds * attempt, maxWaitSeconds);
      if (response && wait > maxWaitSeconds) return response;
      await response?.body?.cancel();
      options.onRetry?.({
        status: response?.status ?? null,
        attempt,
        waitSeconds: wait,
        method: request.method,
        url: request.url,
      });
      await sleep(wait * 1000);
    }
  };
}

/** Gives every write an Idempotency-Key, unless the caller chose one: made here once, so its retries reuse it. */
const idempotencyKeys: Middleware = {
  onRequest({ request }) {
    if (WRITES.has(request.method) && !request.headers.has("idempotency-key"))
      request.headers.set("idempotency-key", randomUUID());
    return request;
  },
};

type Answer<D> = { data?: D; error?: unknown; response: Response };

/** The data of a successful answer; any error answer thrown as its typed exception (src/errors.ts). */
export async function unwrap<D>(call: Promise<Answer<D>>): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiError(response, error);
  return data as D;
}

export function createClient(options: ClientOptions) {
  const api = createFetchClient<paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, "")}/v1`,
    headers: { "x-api-key": options.apiKey },
    fetch: retryingFetch(options),
  });
  api.use(idempotencyKeys);

  /** Every static QR code of the library (or those the filters keep), newest first unless `sort` says otherwise, page after page. */
  async function* staticCodes({ pageSize = 100, ...filters }: StaticListOptions = {}): AsyncGenerator<StaticQrCode> {
    let cursor: string | undefined;
    do {
      const query = { ...filters, limit: pageSize, cursor };
      const page = await unwrap(api.GET("/qrcodes", { params: { query } }));
      yield* page.qrcodes;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** Every dynamic QR code of the library (or those the filters keep), newest first unless `sort` says otherwise, page after page. */
  async function* dynamicCodes({ pageSize = 100, ...filters }: DynamicListOptions = {}): AsyncGenerator<DynamicQrCode> {
    let cursor: string | undefined;
    do {
      const query = { ...filters, limit: pageSize, cursor };
      const page = await unwrap(api.GET("/dynqrcodes", { params: { query } }));
      yield* page.dynqrcodes;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** A webhook's delivery sent again (a new delivery, same webhook-id), and its signing secret rotated (the new one shown once). */
  const webhooks = {
    retry: (webhookId: string, deliveryId: string) =>
      unwrap(
        api.POST("/webhooks/{webhook_id}/deliveries/{delivery_id}/retry", {
          params: { path: { webhook_id: webhookId, delivery_id: deliveryId } },
        }),
      ),
    rotateSecret: (webhookId: string) =>
      unwrap(api.POST("/webhooks/{webhook_id}/rotate-secret", { params: { path: { webhook_id: webhookId } } })),
  };

  /** The codes whose name or URL holds `text` (any case), or whose qr_id / code it is, with further filters. */
  const search = {
    qrcodes: (text: string, options: Omit<StaticListOptions, "search"> = {}) =>
      staticCodes({ ...options, search: text }),
    dynqrcodes: (text: string, options: Omit<DynamicListOptions, "search"> = {}) =>
      dynamicCodes({ ...options, search: text }),
  };

  /** Deletes 1 to 50 codes, all or none (an ApiError lists the refused ones by index); returns the ids deleted. */
  const deleteMany = {
    qrcodes: async (ids: string[]) => (await unwrap(api.POST("/qrcodes/batch-delete", { body: { ids } }))).deleted,
    dynqrcodes: async (codes: string[]) =>
      (await unwrap(api.POST("/dynqrcodes/batch-delete", { body: { ids: codes } }))).deleted,
  };

  /** The whole library out and in (the bundle): `bundle.export()`, `bundle.import(body)`. */
  const bundle = bundleCalls(options, api, unwrap);

  return { api, unwrap, staticCodes, dynamicCodes, search, deleteMany, webhooks, bundle, ...recordCalls(api, unwrap) };
}

export type Client = ReturnType<typeof createClient>;
