import path from "node:path";
import { fileURLToPath } from "node:url";

export const prismaDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export type ProviderName = "sqlite" | "postgres";
export const PROVIDERS: { name: ProviderName; provider: string }[] = [
  { name: "sqlite", provider: "sqlite" },
  { name: "postgres", provider: "postgresql" },
];

export const schemaPath = (name: ProviderName) => path.join(prismaDir, name, "schema.prisma");
export const migrationsDir = (name: ProviderName) => path.join(prismaDir, name, "migrations");
