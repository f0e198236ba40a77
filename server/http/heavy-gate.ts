// At most one large body's work at a time (issue 37). Each step of a large body's work (its
// decoding, the shape's scan, the parse, the checks) holds the event loop for a few ms and then
// yields; two callers sending large bodies back to back would take turns holding it, and a
// redirect that arrived meanwhile would wait for steps of both. Large bodies pass here one after
// another, with a poll for I/O between two of them: a redirect waits for one step at most.
import { yieldToIo } from "../platform/event-loop";
import { processSingleton } from "../platform/process-singleton";

/** Bodies larger than this are worked on one at a time (a body this size decodes and parses in well under a millisecond). */
export const HEAVY_BODY_BYTES = 64 * 1024;

const gate = processSingleton("http.heavyGate", () => ({ tail: Promise.resolve() }));

/** `work` at once for a small body; for a large one, once the large bodies before it are done. */
export async function oneLargeBodyAtATime<T>(bytes: number, work: () => Promise<T>): Promise<T> {
  if (bytes <= HEAVY_BODY_BYTES) return work();
  const before = gate.tail;
  let release!: () => void;
  gate.tail = new Promise<void>((resolve) => (release = resolve));
  await before;
  try {
    return await work();
  } finally {
    // The next one starts after the loop has polled again: the redirects that waited go first.
    void yieldToIo().then(release);
  }
}
