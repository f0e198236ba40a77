// A library to move, made in the database DATABASE_URL names, in a process of its own (the
// bundle's tests and bench fill databases of both backends from one process, and the database
// client is made once per process). Prints one JSON line: the account's personal key.
//   tsx scripts/bundle-library.ts <scans>    codes of every kind (style with logo, rules,
//                                           password, metadata, a draft-free personal library)
//                                           and <scans> scans through the real batch writer
//   tsx scripts/bundle-library.ts 0 --empty   the account and its key only
import { randomUUID } from "node:crypto";

const scans = Number(process.argv[2] ?? 0);
const empty = process.argv.includes("--empty");
const { createUser } = await import("../server/accounts/users");
const { generateKey } = await import("../server/keys/apiKeys");
const { createDynamicCodes } = await import("../server/library/dynamicCodes");
const { createStaticCodes } = await import("../server/library/staticCodes");
const { dynamicCodeInput } = await import("../server/library/dynamicRecords");
const { staticCodeInput } = await import("../server/library/staticRecords");
const { newScan } = await import("../server/scan/rows");
const { writeScans } = await import("../server/scan/write");
const { db } = await import("../server/platform/db");

const user = await createUser(
  { email: `bundle-${randomUUID()}@test.example`, password: "bundle-password-1", name: "Bundle" },
  "pro",
  { verified: true },
);
const { key } = await generateKey(user.id, "personal");
if (!empty) {
  const actor = { userId: user.id, library: { kind: "personal" as const, userId: user.id } };
  // A 1x1 PNG: the logo travels as the data URL it was given as.
  const logo =
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
  // Each create's input as /v1 checks it (and so stores it).
  await createStaticCodes(
    actor,
    [
      { url: "https://example.com/menu", name: "Menu", style: { foreground: "#1a2b3c", logo, logo_size: 6 } },
      { url: "https://example.com/ünïcode?q=1", name: "Ünïcode", metadata: { crm: "C-1" }, external_id: "static-1" },
    ].map((input) => staticCodeInput.parse(input)),
  );
  const dynamic = await createDynamicCodes(
    actor,
    [
      {
        destination_url: "https://example.com/landing",
        name: "Landing",
        code: "landing",
        style: { module_shape: "rounded", logo, logo_size: 6 },
      },
      {
        destination_url: "https://example.com/app",
        name: "App",
        targets: [
          { url: "https://apps.apple.com/app/id1", os: "iOS" },
          { url: "https://example.com/de", country: "DE" },
        ],
        utm: { source: "qr", campaign: "move" },
        expires_at: Math.floor(Date.now() / 1000) + 86_400 * 365,
        expired_url: "https://example.com/ended",
        password: "open-sesame",
        metadata: { order: "4711" },
        external_id: "dyn-1",
      },
      { destination_url: "https://example.com/paused", name: "Paused" },
    ].map((input) => dynamicCodeInput.parse(input)),
  );
  const agents = [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0",
  ];
  const countries = ["US", "DE", "IN", "GB", "JP", "BR", "ZZ"];
  const ids = await Promise.all(
    dynamic.slice(0, 2).map(async (d) => (await db.dynamicCode.findFirstOrThrow({ where: { code: d.code } })).id),
  );
  await db.dynamicCode.updateMany({ where: { code: dynamic[2].code }, data: { status: "paused" } });
  // Over the last 60 days, at every minute of the day (both zones' midnights among them), repeat visitors.
  const DAYS_MS = 60 * 86_400_000;
  const start = Date.now() - DAYS_MS;
  for (let done = 0; done < scans; done += 5000) {
    const batch = Array.from({ length: Math.min(5000, scans - done) }, (_, i) => {
      const n = done + i;
      return newScan({
        dynamicCodeId: ids[n % 2],
        scannedAt: start + Math.floor((n / scans) * DAYS_MS),
        destinationUrl: n % 2 ? "https://example.com/app" : "https://example.com/landing",
        userAgent: agents[n % agents.length],
        address: `10.0.${(n >> 8) % 40}.${n % 251}`,
        countryHeader: countries[n % countries.length],
      });
    });
    await writeScans(batch);
  }
}
console.log(JSON.stringify({ key }));
process.exit(0);
