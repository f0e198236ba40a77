// A dynamic code with rules and a scan of its short link as a given scanner sees it, for the rules
// tests (rules-record and rules-short-link .integration.test.ts).
import assert from "node:assert/strict";
import { http } from "../helpers";

export type Dyn = {
  code: string;
  destination_url: string;
  expires_at: number | null;
  expired_url: string | null;
  targets: object[] | null;
  utm: object | null;
  password_protected: boolean;
};

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function create(key: string, rules: object, destination = "https://example.com/landing"): Promise<Dyn> {
  const r = await http("POST", "/v1/dynqrcodes", {
    key,
    json: { destination_url: destination, name: "Rules", ...rules },
  });
  assert.equal(r.status, 201, r.text);
  return (r.body as { created: Dyn[] }).created[0];
}

/** Where the short link sends this scanner (the status when it is no redirect). */
export async function scan(code: string, userAgent: string, country?: string): Promise<string | number> {
  const r = await http("GET", `/q/${code}`, {
    headers: { "user-agent": userAgent, ...(country ? { "cf-ipcountry": country } : {}) },
  });
  return r.status === 302 ? r.headers.get("location")! : r.status;
}

export const TARGETS = [
  { url: "https://apps.apple.com/app/id1", os: "iOS", device: "mobile" },
  { url: "https://play.google.com/store/apps/details?id=x", os: "Android" },
  { url: "https://example.com/tablet", device: "tablet" },
  { url: "https://example.de/", country: "DE" },
  { url: "https://example.com/windows-fr", os: "Windows", country: "FR" },
];
