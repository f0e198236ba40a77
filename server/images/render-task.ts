// What each of the image pool's threads runs (server/images/pool.ts): one image per call.
import { renderHere, type RenderJob, type Rendered } from "./renderer";

export default function renderTask(job: RenderJob): Promise<Rendered> {
  return renderHere(job);
}
