// npm run db:seed: the demo accounts. Never in production.
import { DEMO_PASSWORD, seedDemo } from "../server/accounts/demo";
import { sqliteFileOf } from "../server/platform/database-url";
import { inStartTurn } from "../server/platform/embedded-lock";
import { env } from "../server/platform/env";

if (process.env.NODE_ENV === "production") {
  console.error("Refusing to seed demo accounts with NODE_ENV=production.");
  process.exit(1);
}
// Two starts on a new embedded database seed in turn (the second finds the accounts made).
const accounts =
  env.backend === "sqlite" ? await inStartTurn(sqliteFileOf(env.databaseUrl), seedDemo) : await seedDemo();
console.log(`Demo accounts (password: ${DEMO_PASSWORD}):`);
console.table(accounts);
process.exit(0);
