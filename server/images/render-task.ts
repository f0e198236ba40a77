// What each of the image pool's threads runs (server/images/pool.ts): one image, or one
// style's decode check, per call.
import { checkHere, renderHere, type CheckJob, type RenderJob, type Rendered } from "./renderer";

export default function renderTask(job: RenderJob): Promise<Rendered> {
  return renderHere(job);
}

export const check = (job: CheckJob): Promise<string | null> => checkHere(job);
