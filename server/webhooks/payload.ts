// What an outbox event says, whoever writes its row: changeWithEvents (events.ts) and the scan
// writer's raw SQL (server/scan/recorder.ts) both take its id and body from here. Timestamps
// one way per medium (README, "Timestamps"): the body's `data` is JSON like the API's answers,
// so its times are epoch seconds (a record is the one /v1 answers with, made by the same
// serializer: dynamicRecordOf, staticRecordOf); the envelope's `timestamp` is ISO 8601 UTC,
// as the contract fixes it. Light on purpose: the scan writer's thread loads it.
import type { DynamicRecord } from "../library/dynamicRecords";
import type { StaticRecord } from "../library/staticRecords";
import { timeOrderedId } from "../platform/ids";
import { isoSeconds } from "../platform/timestamps";
import type { EVENT_TYPES } from "./event-types";

export type EventType = (typeof EVENT_TYPES)[number] | "webhook.test";

/** `scan.created`'s data (contract: "Webhooks"). */
export type ScanCreated = {
  code: string;
  scanned_at: number;
  country: string;
  device: string;
  os: string;
  browser: string;
  unique: boolean;
};

/** An event and its data: a record exactly as /v1 shows it, or a scan. */
export type PendingEvent =
  | { type: "qrcode.created" | "qrcode.updated" | "qrcode.deleted"; data: StaticRecord }
  | { type: "dynqrcode.created" | "dynqrcode.updated" | "dynqrcode.deleted"; data: DynamicRecord }
  | { type: "draft.approved" | "draft.rejected"; data: StaticRecord | DynamicRecord }
  | { type: "scan.created"; data: ScanCreated }
  | { type: "webhook.test"; data: { webhook_id: string } };

/** A new outbox event's id and the body every delivery of it POSTs. */
export function outboxEvent(event: PendingEvent, at: Date | number): { id: string; payload: string } {
  return {
    id: timeOrderedId("evt"),
    payload: JSON.stringify({ type: event.type, timestamp: isoSeconds(at), data: event.data }),
  };
}
