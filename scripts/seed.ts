// npm run db:seed: the demo accounts. Never in production.
import { DEMO_PASSWORD, seedDemo } from "../server/domain/demo";

if (process.env.NODE_ENV === "production") {
  console.error("Refusing to seed demo accounts with NODE_ENV=production.");
  process.exit(1);
}
const accounts = await seedDemo();
console.log(`Demo accounts (password: ${DEMO_PASSWORD}):`);
console.table(accounts);
process.exit(0);
