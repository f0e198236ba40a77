// One line that says what a code of a non-url type holds, where a URL is shown for the others
// (the library's rows, the review queue, a rejected draft's notice).
import type { Content, ContentType } from "./content";

const LABELS: { [T in ContentType]: string } = {
  text: "Text",
  email: "Email",
  phone: "Phone",
  sms: "SMS",
  wifi: "Wi-Fi",
  vcard: "Contact",
  geo: "Place",
  event: "Event",
};

const SUMMARIES: { [T in ContentType]: (content: Content[T]) => string } = {
  text: ({ text }) => text,
  email: ({ to, subject }) => (subject ? `${to}: ${subject}` : to),
  phone: ({ number }) => number,
  sms: ({ number }) => number,
  wifi: ({ ssid, encryption }) => `${ssid} (${encryption === "nopass" ? "open" : encryption})`,
  vcard: (card) =>
    [card.first_name, card.last_name, card.organization && `· ${card.organization}`].filter(Boolean).join(" "),
  geo: ({ latitude, longitude }) => `${latitude}, ${longitude}`,
  event: ({ title, start }) => `${title} · ${start}`,
};

/** `Wi-Fi: Café Gäste (WPA)`, at most 200 characters on one line. */
export function contentSummary<T extends ContentType>(type: T, content: Content[T]): string {
  const line = `${LABELS[type]}: ${(SUMMARIES[type] as (c: Content[T]) => string)(content)}`.replace(/\s+/g, " ");
  return [...line].length > 200 ? `${[...line].slice(0, 199).join("")}…` : line;
}
