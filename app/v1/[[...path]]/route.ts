// Every /v1 route goes through one handler, so that the key gate, the route table and the
// error bodies are the same for all of them.
import { handleV1 } from "@/server/api/v1";

export const dynamic = "force-dynamic";

export {
  handleV1 as GET,
  handleV1 as POST,
  handleV1 as PATCH,
  handleV1 as PUT,
  handleV1 as DELETE,
  handleV1 as HEAD,
  handleV1 as OPTIONS,
};
