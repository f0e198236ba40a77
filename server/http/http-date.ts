// HTTP-dates (RFC 9110, 5.6.7), read in the three forms a recipient must accept: IMF-fixdate
// (`Sun, 06 Nov 1994 08:49:37 GMT`, the one to send), and the obsolete RFC 850 and asctime
// forms. Anchored expressions without backtracking: a long header costs one failed match.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = `(${MONTHS.join("|")})`;
const TIME = "(\\d\\d):(\\d\\d):(\\d\\d)";
const FORMS: { pattern: RegExp; order: [day: number, month: number, year: number] }[] = [
  {
    pattern: new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d\\d) ${MONTH} (\\d{4}) ${TIME} GMT$`),
    order: [1, 2, 3],
  },
  {
    pattern: new RegExp(
      `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d\\d)-${MONTH}-(\\d\\d) ${TIME} GMT$`,
    ),
    order: [1, 2, 3],
  },
  { pattern: new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`), order: [2, 1, 6] },
];

/** Epoch milliseconds of an HTTP-date, or null when `text` is not one. */
export function parseHttpDate(text: string): number | null {
  for (const { pattern, order } of FORMS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const [day, month, year] = [Number(m[order[0]]), MONTHS.indexOf(m[order[1]]), Number(m[order[2]])];
    const [hour, minute, second] = order[0] === 2 ? [m[3], m[4], m[5]].map(Number) : [m[4], m[5], m[6]].map(Number);
    // A two-digit year more than 50 years ahead is of the past century (RFC 9110).
    const fullYear =
      m[order[2]].length === 2 ? (2000 + year > new Date().getUTCFullYear() + 50 ? 1900 + year : 2000 + year) : year;
    const ms = Date.UTC(fullYear, month, day, hour, minute, second);
    const back = new Date(ms);
    // 31 Feb, 25:00 or 61 s are not dates: Date.UTC would carry them over.
    if (
      back.getUTCDate() !== day ||
      back.getUTCHours() !== hour ||
      back.getUTCMinutes() !== minute ||
      back.getUTCSeconds() !== second
    )
      return null;
    return ms;
  }
  return null;
}
