// The tests' SMTP server (smtp-server, MIT-0): tests/run.ts starts one for the whole run and
// gives its address to every server as SMTP_URL, so each mail the service sends crosses a
// real SMTP conversation. Every accepted message is written, as received, to MAIL_SINK_DIR;
// tests read them back with `mailsTo` / `waitForMail`.
// A recipient whose local part holds `+refuse-once` is refused (451) the first time it is
// offered, so that tests can see the service retry.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export async function startMailSink(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  const refused = new Set<string>();
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      if (to.includes("+refuse-once") && !refused.has(to)) {
        refused.add(to);
        const error = new Error("Mailbox busy, try again later") as Error & { responseCode: number };
        error.responseCode = 451;
        return callback(error);
      }
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        count += 1;
        writeFileSync(
          path.join(dir, `${Date.now()}-${process.pid}-${String(count).padStart(6, "0")}.eml`),
          Buffer.concat(chunks),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const sinkDir = () => {
  const dir = process.env.MAIL_SINK_DIR;
  if (!dir) throw new Error("MAIL_SINK_DIR is not set: run the tests with npm test");
  return dir;
};

export type ReceivedMail = ParsedMail & { file: string };

/** Every mail received so far for `address`, oldest first (as the SMTP server received them). */
export async function mailsTo(address: string, dir = sinkDir()): Promise<ReceivedMail[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .sort();
  const mails: ReceivedMail[] = [];
  for (const file of files) {
    const raw = readFileSync(path.join(dir, file));
    // Cheap filter before parsing: the envelope's address is in the To header.
    if (!raw.toString("latin1").toLowerCase().includes(address.toLowerCase())) continue;
    const parsed = await simpleParser(raw);
    const to = [parsed.to]
      .flat()
      .flatMap((t) => t?.value ?? [])
      .map((v) => v.address?.toLowerCase());
    if (to.includes(address.toLowerCase())) mails.push({ ...parsed, file });
  }
  return mails;
}

/** Waits for the `nth` (1-based, default 1) mail to `address` whose subject matches. */
export async function waitForMail(
  address: string,
  subject: RegExp = /./,
  options: { nth?: number; timeoutMs?: number; dir?: string } = {},
): Promise<ReceivedMail> {
  const nth = options.nth ?? 1;
  const end = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const found = (await mailsTo(address, options.dir)).filter((m) => subject.test(m.subject ?? ""));
    if (found.length >= nth) return found[nth - 1];
    if (Date.now() > end)
      throw new Error(`no mail ${nth} to ${address} matching ${subject} within ${options.timeoutMs ?? 15_000} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The first link in a mail's text body whose path starts with `pathname` (e.g. "/reset-password"). */
export function linkIn(mail: ParsedMail, pathname: string): URL {
  for (const match of (mail.text ?? "").matchAll(/https?:\/\/\S+/g)) {
    const url = new URL(match[0]);
    if (url.pathname.startsWith(pathname)) return url;
  }
  throw new Error(`no ${pathname} link in the mail "${mail.subject}"`);
}
