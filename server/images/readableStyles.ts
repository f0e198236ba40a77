// Every path that stores a style (API create and batch, PATCH, the page's editor) refuses one
// whose code would not scan: the decode check (server/images/styleCheck.ts), run in the image
// pool's threads when the server has them.
import { fromZodIssues } from "../platform/errors";
import { checkStyle } from "./renderer";
import { unreadable } from "./qrStyle";
import type { Style } from "../library/validation";

/** A style that changes nothing of the default drawing needs no check. */
const isDefault = (style: Style | undefined) => !style || Object.keys(style).length === 0;

/**
 * Refuses (400, nothing stored) the items whose style makes their code unreadable: `batch`
 * names the batch's array, whose invalid items are listed by index as for any other rule.
 */
export async function refuseUnreadableStyles(
  items: { text: string; style?: Style }[],
  batch: "qrcodes" | "dynqrcodes" | null = null,
): Promise<void> {
  const reasons = await Promise.all(
    items.map(({ text, style }) => (isDefault(style) ? null : checkStyle({ text, style: style! }))),
  );
  const issues = reasons.flatMap((reason, index) =>
    reason ? [{ path: batch ? [batch, index, "style"] : ["style"], message: unreadable(reason) }] : [],
  );
  if (issues.length > 0) throw fromZodIssues(issues);
}
