// `pnpm services`: MariaDB and Redis for this project from the machine's own
// binaries (data in .data/), for as long as this runs; Ctrl-C stops them.
import { getConfigOrExit } from "@mw/shared";
import { LocalServicesError, startLocalServices } from "./services/local.ts";

const config = getConfigOrExit("cli");
let services;
try {
  services = await startLocalServices({ databaseUrl: config.DATABASE_URL, redisUrl: config.REDIS_URL });
} catch (error) {
  console.error((error as Error).message);
  process.exit(error instanceof LocalServicesError ? error.exitCode : 69); // EX_UNAVAILABLE
}
for (const line of services.prepared) console.log(line);
if (services.started.length === 0) {
  console.log("MariaDB and Redis already answer at DATABASE_URL and REDIS_URL (or point elsewhere): nothing to start.");
  process.exit(0);
}
for (const line of services.started) console.log(`started ${line}`);
console.log("Ctrl-C stops them.");
const stop = async () => {
  await services.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
