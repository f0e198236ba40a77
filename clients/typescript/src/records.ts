// One record read, one static code changed, many changed at once (contract Part 3, "Reading,
// finding and changing in bulk"): the calls of the typed client beside the generated `api`.
import type { Client as FetchClient } from "openapi-fetch";
import type { paths } from "./schema";

type Answer<D> = { data?: D; error?: unknown; response: Response };
type Unwrap = <D>(call: Promise<Answer<D>>) => Promise<D>;
export type StaticChange =
  paths["/qrcodes/batch"]["patch"]["requestBody"]["content"]["application/json"]["qrcodes"][number];
export type DynamicChange =
  paths["/dynqrcodes/batch"]["patch"]["requestBody"]["content"]["application/json"]["dynqrcodes"][number];

/** A qr_id (`qr_…`) names a static code; anything else, a dynamic code's 8 characters. */
export const isStaticId = (id: string) => id.startsWith("qr_");

/** A caller's own Idempotency-Key (a file's batch: the same on every run), else the client makes one. */
const keyed = (key: string | undefined) => (key ? { headers: { "Idempotency-Key": key } } : {});

export function recordCalls(api: FetchClient<paths>, unwrap: Unwrap) {
  return {
    /** One code by its qr_id (static) or code (dynamic); NotFoundError when the library has none. */
    get: (id: string) =>
      isStaticId(id)
        ? unwrap(api.GET("/qrcodes/{qr_id}", { params: { path: { qr_id: id } } }))
        : unwrap(api.GET("/dynqrcodes/{code}", { params: { path: { code: id } } })),
    /** Changes a static code's url, name, style, metadata or external_id (null clears those two). */
    update: (qrId: string, change: Omit<StaticChange, "qr_id">) =>
      unwrap(api.PATCH("/qrcodes/{qr_id}", { params: { path: { qr_id: qrId } }, body: change })),
    /** Changes 1 to 50 codes of one kind, all or none; a writer's held-back changes come back with their pending_change. */
    updateMany: {
      static: (changes: StaticChange[], idempotencyKey?: string) =>
        unwrap(api.PATCH("/qrcodes/batch", { body: { qrcodes: changes }, ...keyed(idempotencyKey) })).then(
          (answer) => answer.updated,
        ),
      dynamic: (changes: DynamicChange[], idempotencyKey?: string) =>
        unwrap(api.PATCH("/dynqrcodes/batch", { body: { dynqrcodes: changes }, ...keyed(idempotencyKey) })).then(
          (answer) => answer.updated,
        ),
    },
  };
}
