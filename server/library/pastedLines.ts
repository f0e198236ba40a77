// The web library's pasted lines: one record a line, `name, url`.

/** A scheme at `lastIndex` (sticky: no slice per comma). */
const SCHEME = /[a-z][a-z0-9+.-]*:/iy;
const SPACE = /\s/;
const isSpace = (c: string) => SPACE.test(c);
const schemeAt = (line: string, at: number) => ((SCHEME.lastIndex = at), SCHEME.test(line));

/**
 * A trimmed line's name and URL, or null. The URL is one word that starts with a scheme and ends
 * the line, after the first comma that allows it (before the last word and spaces, or inside the
 * last word); the name, what comes before that comma. Scanned by hand, in one pass from the end:
 * a regular expression with `(.*?)\s*,` took seconds on a line of spaces (backtracking).
 */
function splitLine(line: string): { name: string; url: string } | null {
  let wordStart = line.length;
  while (wordStart > 0 && !isSpace(line[wordStart - 1])) wordStart--;
  let beforeWord = wordStart;
  while (beforeWord > 0 && isSpace(line[beforeWord - 1])) beforeWord--;
  const commas = [...(beforeWord < wordStart && line[beforeWord - 1] === "," ? [beforeWord - 1] : [])];
  for (let i = wordStart; i < line.length; i++) if (line[i] === ",") commas.push(i);
  for (const comma of commas) {
    const start = comma + 1 === beforeWord ? wordStart : comma + 1;
    if (schemeAt(line, start)) return { name: line.slice(0, comma).trimEnd(), url: line.slice(start) };
  }
  return null;
}

/**
 * Pasted lines of `name, url` (blank lines skipped). The name may hold commas: the URL is
 * what follows the comma before the line's last word, when that word looks like a URL.
 */
export function parseLines(text: string): {
  items: { line: number; name: string; url: string }[];
  problems: { index: number; error: string }[];
} {
  const items: { line: number; name: string; url: string }[] = [];
  const problems: { index: number; error: string }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === "") return;
    const item = splitLine(raw.trim());
    if (item) items.push({ line: i + 1, ...item });
    else problems.push({ index: i, error: "write it as: name, https://…" });
  });
  return { items, problems };
}
