// `pnpm db:migrate`: create the database named in DATABASE_URL if missing and apply pending migrations.
import { checkDatabase, getConfigOrExit } from "@mw/platform";
import { migrate, MigrationError } from "./migrations/apply.ts";

const config = getConfigOrExit("migrate");
// A wrong password, a server that is down: one line naming DATABASE_URL and what was tried, not a driver's stack trace.
const problem = await checkDatabase(config.DATABASE_URL, { database: false });
if (problem) {
  console.error(problem.line);
  process.exit(problem.exitCode);
}
try {
  const result = await migrate(config.DATABASE_URL, { log: (line) => console.log(line) });
  console.log(
    `${result.database}: ${result.created ? "created, " : ""}${result.applied.length ? `${result.applied.length} migration(s) applied` : "already up to date"}`,
  );
} catch (error) {
  if (!(error instanceof MigrationError)) throw error;
  console.error(error.message);
  process.exit(1);
}
