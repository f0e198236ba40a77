// A change and the events that report it, in one transaction (the outbox's rows: outbox.ts).
import { db, type Tx } from "../platform/db";
import type { Library } from "../library/library";
import { wakeDispatcher } from "./dispatcher";
import { recordEvents } from "./outbox";
import type { PendingEvent } from "./payload";

import { EVENT_TYPES } from "./event-types";

export { EVENT_TYPES };
export type { EventType, PendingEvent } from "./payload";

/**
 * A change of `library` and the events that report it, in one transaction; this instance's
 * dispatcher is woken once it commits (the others find the deliveries within a second).
 */
export async function changeWithEvents<T>(
  library: Library,
  work: (tx: Tx) => Promise<{ result: T; events: PendingEvent[] }>,
): Promise<T> {
  let stored = false;
  const result = await db.$transaction(async (tx) => {
    const done = await work(tx);
    stored = (await recordEvents(tx, library, done.events)).stored;
    return done.result;
  });
  if (stored) wakeDispatcher();
  return result;
}
