"use client";
// The create form's fields of a static code that is not a URL (docs/TYPES.md): one labelled
// input per field of the type's `content`, turned into the API's object on submit. The rules
// (lengths, formats) are the server's, whose messages name the field.
import { useId } from "react";

export const CONTENT_TYPE_LABELS = {
  url: "Web address",
  text: "Text",
  email: "Email",
  phone: "Phone call",
  sms: "SMS",
  wifi: "Wi-Fi",
  vcard: "Contact card",
  geo: "Place",
  event: "Event",
} as const;
export type CodeTypeChoice = keyof typeof CONTENT_TYPE_LABELS;
/** What a dynamic code's short link answers (docs/TYPES.md "Hosted pages"). */
export const DYNAMIC_TYPE_LABELS = {
  url: "Redirect to a web address",
  vcard: "Contact card (hosted page)",
  page: "Link page (hosted page)",
} as const;
export type DynamicTypeChoice = keyof typeof DYNAMIC_TYPE_LABELS;
/** The types whose fields this form shows. */
export type FieldsType = Exclude<CodeTypeChoice, "url"> | "page";
const LEGENDS: Record<FieldsType, string> = { ...CONTENT_TYPE_LABELS, page: "Link page" };

type Field = {
  name: string;
  label: string;
  input?: "textarea" | "lines" | "links" | "number" | "datetime" | "checkbox" | "email" | "tel" | "url" | "encryption";
  required?: boolean;
  hint?: string;
};

const FIELDS: Record<FieldsType, Field[]> = {
  text: [{ name: "text", label: "Text", input: "textarea", required: true }],
  email: [
    { name: "to", label: "To (email address)", input: "email", required: true },
    { name: "subject", label: "Subject" },
    { name: "body", label: "Message", input: "textarea" },
  ],
  phone: [{ name: "number", label: "Phone number", input: "tel", required: true }],
  sms: [
    { name: "number", label: "Phone number", input: "tel", required: true },
    { name: "body", label: "Message", input: "textarea" },
  ],
  wifi: [
    { name: "ssid", label: "Network name (SSID)", required: true },
    { name: "encryption", label: "Security", input: "encryption", required: true },
    { name: "password", label: "Password", hint: "Leave empty for an open network." },
    { name: "hidden", label: "Hidden network", input: "checkbox" },
  ],
  vcard: [
    { name: "first_name", label: "First name", required: true },
    { name: "last_name", label: "Last name" },
    { name: "organization", label: "Organization" },
    { name: "title", label: "Job title" },
    { name: "phones", label: "Phone numbers", input: "lines", hint: "One per line, up to 10." },
    { name: "emails", label: "Email addresses", input: "lines", hint: "One per line, up to 10." },
    { name: "url", label: "Website", input: "url" },
    { name: "address", label: "Address", input: "textarea" },
    { name: "note", label: "Note", input: "textarea" },
  ],
  geo: [
    { name: "latitude", label: "Latitude", input: "number", required: true, hint: "-90 to 90, e.g. 52.520008" },
    { name: "longitude", label: "Longitude", input: "number", required: true, hint: "-180 to 180, e.g. 13.404954" },
  ],
  event: [
    { name: "title", label: "Title", required: true },
    { name: "start", label: "Starts", input: "datetime", required: true },
    { name: "end", label: "Ends", input: "datetime" },
    { name: "location", label: "Location" },
    { name: "description", label: "Description", input: "textarea" },
  ],
  page: [
    { name: "title", label: "Page title", required: true },
    {
      name: "links",
      label: "Links",
      input: "links",
      required: true,
      hint: "One per line as label, https://address; up to 20.",
    },
  ],
};

/** `Menu, https://example.com/menu`: the label before the last comma that starts the address. */
const LINK_LINE = /^(.*?)\s*,\s*(https?:\/\/\S*)$/i;

export type ContentValues = Record<string, string>;

/** `2026-07-04T18:00` (a datetime-local input, the browser's zone) as ISO 8601 with the zone's offset. */
function withOffset(local: string): string {
  const offset = -new Date(local).getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, "0");
  return `${local.length === 16 ? `${local}:00` : local}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/** The form's strings as the type's `content`: empty fields left out, numbers, lists and booleans converted. */
export function contentOf(type: FieldsType, values: ContentValues): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of FIELDS[type]) {
    const value = values[field.name] ?? "";
    if (field.input === "checkbox") {
      if (value === "true") content[field.name] = true;
      continue;
    }
    if (field.name === "encryption") {
      content.encryption = value || "WPA";
      continue;
    }
    if (value.trim() === "") continue;
    if (field.input === "links")
      // A line without an address goes as a label alone: the server's message names it.
      content[field.name] = value
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => {
          const match = LINK_LINE.exec(line);
          return match ? { label: match[1], url: match[2] } : { label: line, url: "" };
        });
    else if (field.input === "lines")
      content[field.name] = value
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean);
    else if (field.input === "number") content[field.name] = Number(value);
    else if (field.input === "datetime") content[field.name] = withOffset(value);
    else content[field.name] = value;
  }
  return content;
}

/** A hosted code's stored content as the form's strings (its edit form starts from them): contentOf's inverse. */
export function valuesOf(type: "vcard" | "page", content: Record<string, unknown> | null): ContentValues {
  const values: ContentValues = {};
  for (const field of FIELDS[type]) {
    const value = content?.[field.name];
    if (value === undefined || value === null) continue;
    if (field.input === "links")
      values[field.name] = (value as { label: string; url: string }[]).map((l) => `${l.label}, ${l.url}`).join("\n");
    else if (field.input === "lines") values[field.name] = (value as string[]).join("\n");
    else values[field.name] = String(value);
  }
  return values;
}

export function ContentFields({
  type,
  values,
  onValues,
}: {
  type: FieldsType;
  values: ContentValues;
  onValues: (values: ContentValues) => void;
}) {
  const prefix = useId();
  const set = (name: string, value: string) => onValues({ ...values, [name]: value });
  return (
    <fieldset className="content-fields full" data-testid={`content-${type}`}>
      <legend>{LEGENDS[type]}</legend>
      {FIELDS[type].map((field) => {
        const id = `${prefix}-${field.name}`;
        const hint = field.hint ? `${id}-hint` : undefined;
        const common = {
          id,
          value: values[field.name] ?? "",
          required: field.required,
          "aria-describedby": hint,
        };
        const change = (e: { target: { value: string } }) => set(field.name, e.target.value);
        let control;
        if (field.input === "checkbox")
          return (
            <div key={field.name} className="check">
              <input
                id={id}
                type="checkbox"
                checked={values[field.name] === "true"}
                onChange={(e) => set(field.name, String(e.target.checked))}
              />
              <label htmlFor={id}>{field.label}</label>
            </div>
          );
        if (field.input === "encryption")
          control = (
            <select {...common} value={values.encryption || "WPA"} onChange={change}>
              <option value="WPA">WPA/WPA2/WPA3</option>
              <option value="WEP">WEP</option>
              <option value="nopass">None (open network)</option>
            </select>
          );
        else if (field.input === "textarea" || field.input === "lines" || field.input === "links")
          control = (
            <textarea
              {...common}
              rows={field.input === "textarea" ? 3 : field.input === "links" ? 4 : 2}
              onChange={change}
            />
          );
        else
          control = (
            <input
              {...common}
              type={
                field.input === "datetime"
                  ? "datetime-local"
                  : field.input === "number"
                    ? "text"
                    : (field.input ?? "text")
              }
              inputMode={field.input === "number" ? "decimal" : undefined}
              onChange={change}
            />
          );
        return (
          <div key={field.name}>
            <label htmlFor={id}>{field.label}</label>
            {control}
            {hint && (
              <p id={hint} className="muted">
                {field.hint}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
