// The tests' DNS server (dns2, MIT): tests/run.ts starts one for the whole run and gives its
// address to every server as DNS_SERVERS, so each custom domain's verification is a real DNS
// query over UDP, and nothing reaches a real resolver. It answers TXT questions from files in
// DNS_RECORDS_DIR, one per name, a value a line, which tests write with `setTxtRecord`; any
// other name or type is answered NXDOMAIN.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import dns2 from "dns2";

const { Packet } = dns2;
/** RFC 1035's name error (NXDOMAIN) in the header's rcode. */
const NXDOMAIN = 3;

const fileOf = (dir: string, name: string) => path.join(dir, `${name.toLowerCase().replace(/\.$/, "")}.txt`);

export async function startDnsServer(dir: string): Promise<{ servers: string; stop: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      let values: string[] = [];
      try {
        values = readFileSync(fileOf(dir, question.name), "utf8").split("\n").filter(Boolean);
      } catch {
        // no record of that name
      }
      if (question.type === Packet.TYPE.TXT && values.length > 0)
        for (const value of values)
          response.answers.push(
            Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, ttl: 0, data: value }),
          );
      else if (values.length === 0) response.header.rcode = NXDOMAIN;
      send(response);
    },
  });
  const { port } = (await server.listen({ udp: { port: 0, address: "127.0.0.1" } })).udp!;
  return { servers: `127.0.0.1:${port}`, stop: () => server.close() };
}

const recordsDir = () => {
  const dir = process.env.DNS_RECORDS_DIR;
  if (!dir) throw new Error("DNS_RECORDS_DIR is not set: run the tests with npm test");
  return dir;
};

/** The TXT record `name` holds from now on (no values: none). */
export function setTxtRecord(name: string, values: string[]): void {
  if (values.length === 0) rmSync(fileOf(recordsDir(), name), { force: true });
  else writeFileSync(fileOf(recordsDir(), name), values.map((value) => `${value}\n`).join(""));
}
