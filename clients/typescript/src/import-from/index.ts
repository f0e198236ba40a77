// The services `qr-records import-from` and the pages' "Import from another service" read:
// each one's own export (docs/IMPORTERS.md says which, and what each cannot carry).
import { readBitly } from "./bitly";
import type { Reader } from "./common";
import { readDub } from "./dub";
import { readKutt } from "./kutt";
import { readRebrandly } from "./rebrandly";
import { readShlink } from "./shlink";
import { readYourls } from "./yourls";

export type Service = { label: string; read: Reader; file: "csv" | "json"; export: string };

export const SERVICES = {
  bitly: {
    label: "Bitly",
    read: readBitly,
    file: "json",
    export: "API v4 GET /v4/groups/{group_guid}/bitlinks, as JSON",
  },
  dub: { label: "Dub", read: readDub, file: "csv", export: "Links, Export links (CSV)" },
  shlink: { label: "Shlink", read: readShlink, file: "csv", export: "web client, Short URLs, Export (short_urls.csv)" },
  yourls: {
    label: "YOURLS",
    read: readYourls,
    file: "json",
    export: "yourls-api.php?action=stats&filter=last&format=json",
  },
  kutt: { label: "Kutt", read: readKutt, file: "json", export: "API v2 GET /api/v2/links, as JSON" },
  rebrandly: { label: "Rebrandly", read: readRebrandly, file: "json", export: "API GET /v1/links, as JSON" },
} as const satisfies Record<string, Service>;

export type ServiceName = keyof typeof SERVICES;
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
export const isServiceName = (name: string): name is ServiceName => Object.hasOwn(SERVICES, name);

export type { Parsed, RejectedRow, SourceLink } from "./common";
export { planImport, type PlannedCode, type Plan } from "./plan";
