import { existsSync } from "node:fs";
import { defineConfig } from "prisma/config";

// Prisma's native schema engine cannot be downloaded on our machines, and
// `prisma generate` only needs the variable to name an existing file: it never
// runs the engine. Migrations are applied by scripts/db-migrate.ts instead.
if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(process.env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    url: process.env.DATABASE_URL ?? "mysql://mw:mw@127.0.0.1:3306/mw",
  },
});
