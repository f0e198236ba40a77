// Writes the per-provider schema files from prisma/base.prisma and generates both clients.
// Prisma fixes `provider` per schema file and ties the generated client to it, so the
// one data model is emitted twice: prisma/sqlite/schema.prisma and prisma/postgres/schema.prisma.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROVIDERS, prismaDir, schemaPath } from "./providers";

export function writeSchemas(): void {
  const base = readFileSync(path.join(prismaDir, "base.prisma"), "utf8");
  for (const p of PROVIDERS) {
    const header = [
      "// GENERATED from prisma/base.prisma by `npm run db:schemas`: edit the base file, not this one.",
      "",
      "generator client {",
      '  provider     = "prisma-client"',
      `  output       = "../../server/generated/${p.name}"`,
      '  moduleFormat = "esm"',
      "}",
      "",
      "datasource db {",
      `  provider = "${p.provider}"`,
      "}",
      "",
    ].join("\n");
    mkdirSync(path.dirname(schemaPath(p.name)), { recursive: true });
    writeFileSync(schemaPath(p.name), header + base);
  }
}

export function generateClients(): void {
  for (const p of PROVIDERS) {
    const result = spawnSync(
      process.execPath,
      [path.join("node_modules", "prisma", "build", "index.js"), "generate", "--schema", schemaPath(p.name)],
      {
        stdio: "inherit",
        env: {
          ...process.env,
          PRISMA_SCHEMA_ENGINE_BINARY: path.join(prismaDir, "scripts", "engine-stub.sh"),
          PRISMA_HIDE_UPDATE_MESSAGE: "1",
          CHECKPOINT_DISABLE: "1",
        },
      },
    );
    if (result.status !== 0) throw new Error(`prisma generate failed for ${p.name}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeSchemas();
  generateClients();
}
