// Operator commands. Billing is out of scope: tiers are set by hand.
//   npm run admin -- set-tier <email> <free|pro|business>
import { setTier } from "../server/domain/users";

const [command, email, tier] = process.argv.slice(2);
try {
  if (command !== "set-tier" || !email || !tier) throw new Error("usage: npm run admin -- set-tier <email> <free|pro|business>");
  const user = await setTier(email, tier);
  console.log(`${user.email} is now on the ${user.tier} tier.`);
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
