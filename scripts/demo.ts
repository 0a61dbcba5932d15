// `pnpm demo`: the platform (API, Bull Board, one worker) against fakes of
// everything outside it, seeded and driven for a few minutes, so a new
// operator sees every kind of job run. Uses its own database (DATABASE_URL's
// name + _demo) and queue prefix, recreated on each run; starts local MariaDB/Redis like
// `pnpm start` when nothing answers. Ctrl-C stops it all.
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { checkServices, createPrisma, createRedis, unlinkMatching } from "@mw/platform";
import { createUser, setLoginPassword } from "@mw/shared/identity";
import { upsertItems } from "@mw/shared/inventory";
import { dropDatabase, migrate } from "./migrations/apply.ts";
import { DemoWorld, CATALOGUE } from "./demo/world.ts";
import { DemoTraffic } from "./demo/traffic.ts";
import { LocalServicesError, startLocalServices } from "./services/local.ts";
import { freePort, PlatformProcess, portFree } from "./support/platform-process.ts";

const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const MINUTES = Number(process.env.DEMO_MINUTES ?? 3);
/** DEMO_EXIT=1 stops after the traffic instead of waiting for Ctrl-C (CI, timing runs). */
const EXIT_AFTER = process.env.DEMO_EXIT === "1";
const PREFIX = `${process.env.QUEUE_PREFIX ?? "mw"}demo`;

const baseDatabaseUrl = process.env.DATABASE_URL ?? "mysql://mw:mw@127.0.0.1:3306/mw";
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const demoUrl = new URL(baseDatabaseUrl);
demoUrl.pathname = `${demoUrl.pathname}_demo`;

const local = await startLocalServices({ databaseUrl: baseDatabaseUrl, redisUrl }).catch((error: Error) => {
  console.error(error.message);
  process.exit(error instanceof LocalServicesError ? error.exitCode : 69);
});
for (const line of local.started) console.log(`started ${line}`);
for (const line of local.prepared) console.log(line);
const problems = await checkServices({ DATABASE_URL: demoUrl.toString(), REDIS_URL: redisUrl }, { database: false });
if (problems.length) {
  for (const problem of problems) console.error(problem.line);
  await local.stop();
  process.exit(problems[0]!.exitCode);
}

console.log(`preparing the demo database ${demoUrl.pathname.slice(1)} (recreated on every run)`);
await dropDatabase(demoUrl.toString());
await migrate(demoUrl.toString());
const redis = createRedis(redisUrl);
await unlinkMatching(redis, `${PREFIX}:*`);
await redis.quit();

const world = new DemoWorld();
await world.start();
// PORT as given; unset, 3000 when free; 0, any free port.
const wanted = process.env.PORT;
const port = wanted && wanted !== "0" ? wanted : !wanted && (await portFree(3000)) ? "3000" : String(await freePort());
const encryptionKey = randomBytes(32).toString("hex");
const environment = () => ({
  NODE_ENV: "development",
  DATABASE_URL: demoUrl.toString(),
  REDIS_URL: redisUrl,
  QUEUE_PREFIX: PREFIX,
  ENCRYPTION_KEY: encryptionKey,
  PORT: port,
  HOST: "127.0.0.1",
  LOG_STDOUT: "true",
  // Read by this script (readiness), so JSON whatever the terminal or .env says.
  LOG_FORMAT: "json",
  LOG_LEVEL: "info",
  LOG_DIR: "logs/demo",
  // The demo's storefronts and sites are fakes on 127.0.0.1, which the egress guard refuses otherwise.
  ALLOW_PRIVATE_URLS: "true",
  ...world.environment(),
});
const api = new PlatformProcess("packages/api/src/main.ts", environment);
const worker = new PlatformProcess("packages/worker/src/main.ts", environment);
const prisma = createPrisma(demoUrl.toString());

async function shutdown(code: number): Promise<never> {
  await Promise.allSettled([worker.stop(), api.stop()]);
  await Promise.allSettled([world.stop(), prisma.$disconnect()]);
  await local.stop();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

try {
  await Promise.all([api.start(/"message":"api listening"/), worker.start(/"message":"schedules reconciled"/)]);
} catch (error) {
  console.error(`the platform did not start: ${(error as Error).message}`);
  await shutdown(1);
}

// Any failure from here on still stops the API, worker and services this run started.
process.on("uncaughtException", (error) => {
  console.error(error);
  void shutdown(1);
});
process.on("unhandledRejection", (error) => {
  console.error(error);
  void shutdown(1);
});

const base = `http://127.0.0.1:${port}`;
const password = randomBytes(9).toString("base64url");
const admin = await createUser({ prisma }, { login: "admin", capabilities: ["manage_middleware", "manage_options"] });
await setLoginPassword({ prisma }, "admin", password);
const authorization = `Basic ${Buffer.from(`admin:${admin.application_password}`).toString("base64")}`;
await upsertItems({ prisma }, CATALOGUE.map((item, i) => ({ ...item, stock: 40 + i * 7 })));
const traffic = new DemoTraffic(world, prisma, `${base}/middleware/v1`, authorization);
await traffic.seed();

const board = await fetch(`${base}/admin/queues/api/queues`, { headers: { authorization } });
if (!board.ok) {
  console.error(`Bull Board answered ${board.status}`);
  await shutdown(1);
}
console.log(`
  Bull Board is up after ${seconds()} s.

  Bull Board  ${base}/admin/queues      (sign in: admin / ${password})
  API docs    ${base}/docs
  REST API    ${base}/middleware/v1   (HTTP Basic: admin / ${admin.application_password})
  Logs        logs/demo/   Mail sent   kept by the SMTP sink (counted below)

  Driving ${MINUTES} minute(s) of traffic: orders from the ERP, disputes from the
  acquirer, shipments, tracking and stock syncs, product webhooks, a report.
`);

const deadline = Date.now() + MINUTES * 60_000;
let nextReport = Date.now() + 15_000;
while (Date.now() < deadline) {
  await traffic.tick();
  if (Date.now() >= nextReport) {
    console.log(`  [${seconds()} s] ${(await traffic.counts()).line}`);
    nextReport += 15_000;
  }
  await sleep(2000);
}
await traffic.finish();
const final = await traffic.counts();
console.log(`\n  Done after ${seconds()} s: ${final.line}`);
if (final.failed.length) console.log(`  Failed jobs: ${final.failed.join(", ")} (see Bull Board)`);
if (EXIT_AFTER) await shutdown(final.failed.length ? 1 : 0);
console.log("\n  Still running for you to look around; Ctrl-C stops everything.");
