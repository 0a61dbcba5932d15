// `pnpm db:check`: exit 1 when the database in DATABASE_URL and prisma/schema.prisma disagree.
import { checkDatabase, getConfigOrExit } from "@mw/platform";
import { connectionOptions } from "./migrations/apply.ts";
import { findDrift } from "./migrations/drift.ts";

const config = getConfigOrExit("migrate");
const problem = await checkDatabase(config.DATABASE_URL, { database: true });
if (problem) {
  console.error(problem.line);
  process.exit(problem.exitCode);
}
const { database } = connectionOptions(config.DATABASE_URL);
const drift = await findDrift(config.DATABASE_URL);
if (drift.length === 0) {
  console.log(`schema check: ${database} matches prisma/schema.prisma`);
} else {
  for (const line of drift) console.error(line);
  console.error(
    `schema check: ${database} differs from prisma/schema.prisma in ${drift.length} place(s); run pnpm db:migrate, or add the missing migration (docs/database.md)`,
  );
  process.exitCode = 1;
}
