// The pages name a field the way its form's label does ("Destination URL must be…"); /v1 keeps
// the contract's field names in its messages. Applied once, where the pages' tRPC errors are
// formatted (server/api/trpc.ts).

/** A field of the API as the pages' labels call it. */
export const FIELD_LABELS: Record<string, string> = {
  destination_url: "Destination URL",
  url: "URL",
  name: "Name",
  code: "Back-half",
  style: "Style",
  "style.foreground": "Foreground",
  "style.background": "Background",
  "style.error_correction": "Error correction",
  "style.margin": "Margin",
  role: "Role",
};

// A word that begins a message or one of its lines ("Line 3: url must…", "The url …"): a field
// name if FIELD_LABELS has it.
const FIELD = /^(Line \d+: )?(The )?([a-z_]+(?:\.[a-z_]+)?)(?= )/gm;

/** A domain message in the pages' words: each field name that starts a line becomes its label. */
export const inLabelWords = (message: string) =>
  message.replace(FIELD, (match, line: string | undefined, the: string | undefined, word: string) =>
    Object.hasOwn(FIELD_LABELS, word) ? `${line ?? ""}${the ?? ""}${FIELD_LABELS[word]}` : match,
  );
