// The web library's pasted lines: one record a line, `name, url`.

/**
 * Pasted lines of `name, url` (blank lines skipped). The name may hold commas: the URL is
 * what follows the comma before the line's last word, when that word looks like a URL.
 */
export function parseLines(text: string): { items: { line: number; name: string; url: string }[]; problems: { index: number; error: string }[] } {
  const items: { line: number; name: string; url: string }[] = [];
  const problems: { index: number; error: string }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === "") return;
    const match = /^(.*?)\s*,\s*([a-z][a-z0-9+.-]*:\S*)\s*$/i.exec(raw.trim());
    if (match) items.push({ line: i + 1, name: match[1], url: match[2] });
    else problems.push({ index: i, error: "write it as: name, https://…" });
  });
  return { items, problems };
}
