// The line rules vCard 3.0 (RFC 2425/2426) and iCalendar (RFC 5545) share: text values escaped
// with a backslash, content lines ended by CRLF and folded at 75 octets. Pure, no Node API.

/** A TEXT value: `\` `;` `,` escaped, every line break (CRLF, CR, LF) as `\n`. */
export const escapeText = (value: string): string =>
  value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, "\\n");

const OCTETS_PER_LINE = 75;

/** The UTF-8 length of one code point. */
const octets = (codePoint: number) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/**
 * One content line folded: at most 75 octets a line, continued after CRLF and one space (which
 * counts towards the next line's 75), never splitting a UTF-8 sequence (nor a surrogate pair).
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let used = 0;
  for (const char of line) {
    const size = octets(char.codePointAt(0)!);
    if (used + size > OCTETS_PER_LINE) {
      parts.push(current);
      current = " ";
      used = 1;
    }
    current += char;
    used += size;
  }
  parts.push(current);
  return parts.join("\r\n");
}

/** Content lines as one text: each folded and ended by CRLF. */
export const contentLines = (lines: string[]): string => lines.map((line) => `${foldLine(line)}\r\n`).join("");
