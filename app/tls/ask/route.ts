// /tls/ask under `next dev` or a serverless host; the Node server answers it before Next (server/http/ops.ts).
import { answerOps } from "@/server/http/ops";
import { toResponse } from "@/server/http/answer";

export const dynamic = "force-dynamic";

const handler = async (req: Request) =>
  toResponse(
    await answerOps({
      method: req.method,
      path: "/tls/ask",
      headers: req.headers,
      peer: null,
      query: new URL(req.url).searchParams,
    }),
  );

export { handler as GET, handler as HEAD };
