// Operator commands. Billing is out of scope: tiers are set by hand.
//   npm run admin -- set-tier <email> <free|pro|business>
//   npm run admin -- backup <file>     the embedded database, online (servers may run)
//   npm run admin -- restore <file>    the embedded database, with every server stopped
// (PostgreSQL: pg_dump / pg_restore, see the README's "Running in production".)
import "../server/platform/runtime"; // first: refuses an older Node before anything loads
import { backendOf, sqliteFileOf } from "../server/platform/database-url";
import { env } from "../server/platform/env";
import { keepNewFilesPrivate } from "../server/platform/private-files";

// A backup holds what the database holds: 0600, as the database.
keepNewFilesPrivate();

const USAGE = "usage: npm run admin -- set-tier <email> <free|pro|business> | backup <file> | restore <file>";
const [command, ...rest] = process.argv.slice(2);

function embeddedFile(): string {
  if (backendOf(env.databaseUrl) !== "sqlite")
    throw new Error(
      "backup and restore are for the embedded database; for PostgreSQL use pg_dump and pg_restore (README, 'Running in production')",
    );
  return sqliteFileOf(env.databaseUrl);
}

try {
  if (command === "set-tier" && rest.length === 2) {
    const { setTier } = await import("../server/accounts/users");
    const user = await setTier(rest[0], rest[1]);
    console.log(`${user.email} is now on the ${user.tier} tier.`);
  } else if (command === "backup" && rest.length === 1) {
    const { backupEmbedded } = await import("../server/platform/embedded-backup");
    const started = Date.now();
    const { bytes } = backupEmbedded(embeddedFile(), rest[0]);
    console.log(`Backed up ${embeddedFile()} to ${rest[0]} (${bytes} bytes) in ${Date.now() - started} ms.`);
  } else if (command === "restore" && rest.length === 1) {
    const { restoreEmbedded } = await import("../server/platform/embedded-backup");
    const { kept } = restoreEmbedded(embeddedFile(), rest[0]);
    console.log(`Restored ${rest[0]} to ${embeddedFile()}.${kept ? ` The previous database is kept as ${kept}.` : ""}`);
  } else throw new Error(USAGE);
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
