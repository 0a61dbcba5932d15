// `pnpm db:migrate`: create the database named in DATABASE_URL if missing and apply pending migrations.
import { getConfigOrExit } from "@mw/platform";
import { migrate } from "./migrations/apply.ts";

const config = getConfigOrExit("migrate");
const result = await migrate(config.DATABASE_URL, { log: (line) => console.log(line) });
console.log(
  `${result.database}: ${result.created ? "created, " : ""}${result.applied.length ? `${result.applied.length} migration(s) applied` : "already up to date"}`,
);
