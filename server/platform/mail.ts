// Mail (contract: "Accounts for real"): every mail the service sends goes through sendMail.
// With SMTP_URL, nodemailer (MIT-0) speaks SMTP to that server; without it (outside
// production, or with MAIL_OUTBOX=1) each mail is written as an .eml file under
// MAIL_OUTBOX_DIR (0600, its name logged), so a fresh clone works with nothing installed.
// A mail the SMTP server refuses is retried in the background (1 s, 10 s, 1 min, 5 min) and
// each failure is logged without the mail's links; the action that asked for it is already
// committed and stands (a reset link can be asked for again). A restart forgets retries
// still waiting: what it loses is a mail, never an action.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "./env";
import { timeOrderedId } from "./ids";
import { logInfo, logWarn } from "./log";
import { processSingleton } from "./process-singleton";

export type Mail = {
  to: string;
  subject: string;
  /** Paragraphs of plain text, in order; the action's link comes after them. */
  paragraphs: string[];
  /** The one thing the mail asks the reader to do: a button in HTML, a line in text. */
  action?: { label: string; url: string };
};

const RETRY_SECONDS = [1, 10, 60, 300];

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The plain-text and HTML bodies of a mail. */
export function bodies(mail: Mail): { text: string; html: string } {
  const text =
    [...mail.paragraphs, ...(mail.action ? [`${mail.action.label}: ${mail.action.url}`] : [])].join("\n\n") + "\n";
  const html = [
    '<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">',
    ...mail.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(mail.action
      ? [
          `<p><a href="${escapeHtml(mail.action.url)}" style="display: inline-block; padding: 10px 16px; background: #1d4ed8; color: #fff; text-decoration: none; border-radius: 6px">${escapeHtml(mail.action.label)}</a></p>`,
          `<p style="font-size: 13px; color: #444">Or open this link: ${escapeHtml(mail.action.url)}</p>`,
        ]
      : []),
    "</body></html>",
  ].join("\n");
  return { text, html };
}

/** A link into the app (APP_URL), e.g. link("/reset-password", { token }). */
export function appLink(pathname: string, query: Record<string, string> = {}): string {
  const url = new URL(pathname, `${env.appUrl}/`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

const transports = processSingleton("mail-transports", () => ({
  smtp: env.smtpUrl ? (nodemailer.createTransport(env.smtpUrl) as Transporter) : null,
  // Renders the message as the SMTP server would receive it, for the outbox.
  eml: nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }) as Transporter,
}));

function message(mail: Mail) {
  return { from: env.mailFrom, to: mail.to, subject: mail.subject, ...bodies(mail) };
}

async function writeToOutbox(mail: Mail): Promise<void> {
  const info = (await transports.eml.sendMail(message(mail))) as unknown as { message: Buffer };
  // The mails hold live reset and verification links: the owner's alone, like the spool.
  mkdirSync(env.mailOutboxDir, { recursive: true, mode: 0o700 });
  const file = path.join(env.mailOutboxDir, `${timeOrderedId("mail")}.eml`);
  writeFileSync(file, info.message, { mode: 0o600 });
  // The file's name, never its links: whoever reads the log must not be able to use them.
  logInfo("mail.outbox", { to: mail.to, subject: mail.subject, file });
}

async function sendOverSmtp(smtp: Transporter, mail: Mail, attempt: number): Promise<void> {
  try {
    await smtp.sendMail(message(mail));
    logInfo("mail.sent", { subject: mail.subject, attempt: attempt + 1 });
  } catch (error) {
    const last = attempt >= RETRY_SECONDS.length;
    logWarn(
      last ? "mail.failed" : "mail.retrying",
      { subject: mail.subject, attempt: attempt + 1, ...(last ? {} : { retryInSeconds: RETRY_SECONDS[attempt] }) },
      error,
    );
    if (!last) setTimeout(() => void sendOverSmtp(smtp, mail, attempt + 1), RETRY_SECONDS[attempt] * 1000).unref();
  }
}

/**
 * Sends `mail`, after the change that asked for it is committed. Resolves once the first
 * attempt is over, whatever its outcome: a refusal is retried in the background and logged,
 * never thrown at the caller.
 */
export async function sendMail(mail: Mail): Promise<void> {
  const smtp = transports.smtp;
  if (smtp) return sendOverSmtp(smtp, mail, 0);
  try {
    await writeToOutbox(mail);
  } catch (error) {
    logWarn("mail.failed", { subject: mail.subject, outbox: env.mailOutboxDir }, error);
  }
}
