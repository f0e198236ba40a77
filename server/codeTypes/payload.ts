// What a static code's QR image holds for each type: the standard encoding a phone camera acts on
// (docs/TYPES.md). Pure and deterministic: the same content always gives the same text, which the
// decode check and the tests compare with what decoders read back.
import type { Content, ContentType } from "./content";
import { instantOf } from "./content";
import { contentLines, escapeText } from "./textLines";

/** Only the digits and a leading `+`: `tel:` and `SMSTO:` take no spaces or brackets. */
export const dialable = (number: string): string =>
  (number.trim().startsWith("+") ? "+" : "") + number.replace(/\D/g, "");

/** A `mailto:` (RFC 6068): the address and the fields percent-encoded as UTF-8, line breaks as CRLF. */
export function mailto({ to, subject, body }: Content["email"]): string {
  const address = encodeURIComponent(to).replace(/%40/g, "@");
  const fields = [
    subject ? `subject=${encodeURIComponent(subject)}` : null,
    body ? `body=${encodeURIComponent(body.replace(/\r\n|\r|\n/g, "\r\n"))}` : null,
  ].filter((field) => field !== null);
  return `mailto:${address}${fields.length > 0 ? `?${fields.join("&")}` : ""}`;
}

/** A value of the Wi-Fi format (ZXing's `WIFI:`): `\`, `;`, `,`, `:` and `"` escaped with `\`. */
export const escapeWifi = (value: string): string => value.replace(/[\\;,:"]/g, (c) => `\\${c}`);

/** `WIFI:T:WPA;S:<ssid>;P:<password>;H:true;;`, the password left out for an open network. */
export function wifi({ ssid, password, encryption, hidden }: Content["wifi"]): string {
  const fields = [
    `T:${encryption}`,
    `S:${escapeWifi(ssid)}`,
    encryption !== "nopass" && password ? `P:${escapeWifi(password)}` : null,
    hidden ? "H:true" : null,
  ].filter((field) => field !== null);
  return `WIFI:${fields.join(";")};;`;
}

/** A vCard 3.0 (RFC 2426): CRLF lines folded at 75 octets, TEXT values escaped. */
export function vcard(card: Content["vcard"]): string {
  const first = card.first_name.trim();
  const last = card.last_name?.trim() ?? "";
  const lines = [
    "BEGIN:VCARD",
    "VERSION:3.0",
    `N:${escapeText(last)};${escapeText(first)};;;`,
    `FN:${escapeText([first, last].filter(Boolean).join(" "))}`,
    card.organization ? `ORG:${escapeText(card.organization)}` : null,
    card.title ? `TITLE:${escapeText(card.title)}` : null,
    ...(card.phones ?? []).map((number) => `TEL;TYPE=VOICE:${dialable(number)}`),
    ...(card.emails ?? []).map((address) => `EMAIL;TYPE=INTERNET:${escapeText(address)}`),
    // A URI value, not TEXT: only its commas and semicolons would be read as separators.
    card.url ? `URL:${card.url.replace(/[;,]/g, (c) => `\\${c}`)}` : null,
    // The whole address as the street part: the contract has one address field.
    card.address ? `ADR;TYPE=WORK:;;${escapeText(card.address)};;;;` : null,
    card.note ? `NOTE:${escapeText(card.note)}` : null,
    "END:VCARD",
  ].filter((line) => line !== null);
  return contentLines(lines);
}

/** `20260704T160000Z`: the instant in UTC, as iCalendar's DATE-TIME in UTC form. */
export function utcStamp(iso: string): string {
  return new Date(instantOf(iso)!)
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
}

/** An iCalendar object (RFC 5545) of one VEVENT, times in UTC. */
export function icalendar(event: Content["event"]): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//qr-records//static code//EN",
    "BEGIN:VEVENT",
    `SUMMARY:${escapeText(event.title)}`,
    `DTSTART:${utcStamp(event.start)}`,
    event.end ? `DTEND:${utcStamp(event.end)}` : null,
    event.location ? `LOCATION:${escapeText(event.location)}` : null,
    event.description ? `DESCRIPTION:${escapeText(event.description)}` : null,
    "END:VEVENT",
    "END:VCALENDAR",
  ].filter((line) => line !== null);
  return contentLines(lines);
}

/** A coordinate in plain decimals (never `1e-7`), at most 7 places (about a centimetre). */
export function decimal(value: number): string {
  const fixed = value.toFixed(7).replace(/\.?0+$/, "");
  return fixed === "-0" ? "0" : fixed;
}

const ENCODERS: { [T in ContentType]: (content: Content[T]) => string } = {
  text: ({ text }) => text,
  email: mailto,
  phone: ({ number }) => `tel:${dialable(number)}`,
  sms: ({ number, body }) => `SMSTO:${dialable(number)}:${body ?? ""}`,
  wifi,
  vcard,
  geo: ({ latitude, longitude }) => `geo:${decimal(latitude)},${decimal(longitude)}`,
  event: icalendar,
};

/** The text a code of `type` with `content` encodes. */
export const contentPayload = <T extends ContentType>(type: T, content: Content[T]): string =>
  (ENCODERS[type] as (content: Content[T]) => string)(content);
