// `pnpm demo`: the platform (API, Bull Board, one worker) against fakes of
// everything outside it, seeded and driven for a few minutes, so a new
// operator sees every kind of job run: the commerce half (orders, disputes,
// tracking, stock, a report) and the management half (ticket signals,
// urgency analyses, a CRITICAL alert, the assistant, Harvest time). Uses the
// MariaDB, Redis, port and queue prefix of the environment or .env, with a
// database and prefix of its own (scripts/demo/settings.ts), recreated on
// each run; starts local MariaDB/Redis like `pnpm start` when nothing
// answers. Ctrl-C stops it all.
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { checkServices, createPrisma, createRedis, unlinkMatching } from "@mw/platform";
import { createUser, setLoginPassword } from "@mw/domains/identity";
import { upsertItems } from "@mw/domains/inventory";
import { OptionStore } from "@mw/domains/options";
import { dropDatabase, migrate } from "./migrations/apply.ts";
import { seedManagedSites } from "./demo/managed-sites.ts";
import { DemoDesk, deskOptions } from "./demo/desk.ts";
import { demoSettings, isolatedEnvironment } from "./demo/settings.ts";
import { SAM } from "./demo/story.ts";
import { DemoWorld, CATALOGUE } from "./demo/world.ts";
import { DemoTraffic } from "./demo/traffic.ts";
import { LocalServicesError, startLocalServices } from "./services/local.ts";
import { freePort, PlatformProcess, portFree } from "./support/platform-process.ts";

const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const MINUTES = Number(process.env.DEMO_MINUTES ?? 3);
/** DEMO_EXIT=1 stops after the traffic instead of waiting for Ctrl-C (CI, timing runs). */
const EXIT_AFTER = process.env.DEMO_EXIT === "1";
const settings = demoSettings();

const local = await startLocalServices({ databaseUrl: settings.baseDatabaseUrl, redisUrl: settings.redisUrl }).catch((error: Error) => {
  console.error(error.message);
  process.exit(error instanceof LocalServicesError ? error.exitCode : 69);
});
for (const line of local.started) console.log(`started ${line}`);
for (const line of local.prepared) console.log(line);
const problems = await checkServices({ DATABASE_URL: settings.databaseUrl, REDIS_URL: settings.redisUrl }, { database: false });
if (problems.length) {
  for (const problem of problems) console.error(problem.line);
  await local.stop();
  process.exit(problems[0]!.exitCode);
}

console.log(`preparing the demo database ${new URL(settings.databaseUrl).pathname.slice(1)} and queue prefix ${settings.queuePrefix} (recreated on every run)`);
await dropDatabase(settings.databaseUrl);
await migrate(settings.databaseUrl);
const redis = createRedis(settings.redisUrl);
await unlinkMatching(redis, `${settings.queuePrefix}:*`);
await redis.quit();

const world = new DemoWorld();
await world.start();
// PORT as set (3000 unset) when free, else any free port (`pnpm start` may hold it); 0, any free port.
let port = settings.port;
if (port === 0 || !(await portFree(port))) {
  if (port !== 0) console.log(`port ${port} (PORT) is in use, by \`pnpm start\` perhaps: the demo takes a free one`);
  port = await freePort();
}
const base = `http://127.0.0.1:${port}`;
const encryptionKey = randomBytes(32).toString("hex");
const securityKey = randomBytes(24).toString("hex");
// The demo's own reads (seeding, counting) wait as long as a loaded machine needs; nothing here is a hot path.
const prisma = createPrisma(settings.databaseUrl, { acquireTimeoutMs: 30_000, connectTimeoutMs: 30_000 });
// Set before the platform starts, so no process serves an older value from its cache.
await new OptionStore(prisma, Buffer.from(encryptionKey, "hex")).set(deskOptions(world, base, securityKey));
const environment = () =>
  isolatedEnvironment(settings, {
    NODE_ENV: "development",
    DATABASE_URL: settings.databaseUrl,
    REDIS_URL: settings.redisUrl,
    QUEUE_PREFIX: settings.queuePrefix,
    ENCRYPTION_KEY: encryptionKey,
    PORT: String(port),
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

const password = randomBytes(9).toString("base64url");
const admin = await createUser({ prisma }, { login: "admin", capabilities: ["manage_middleware", "manage_options"] });
await setLoginPassword({ prisma }, "admin", password);
const authorization = `Basic ${Buffer.from(`admin:${admin.application_password}`).toString("base64")}`;
await upsertItems({ prisma }, CATALOGUE.map((item, i) => ({ ...item, stock: 40 + i * 7 })));
const traffic = new DemoTraffic(world, prisma, `${base}/middleware/v1`, authorization);
await traffic.seed();
await seedManagedSites(base, authorization);
// Sam, a staff member: signs in to the console, answers tickets, logs time, asks the assistant.
const samPassword = randomBytes(9).toString("base64url");
const sam = await createUser({ prisma }, { login: "sam", capabilities: ["staff"], staffId: SAM.id });
await setLoginPassword({ prisma }, "sam", samPassword);
const desk = new DemoDesk(world, prisma, base, securityKey, `Basic ${Buffer.from(`sam:${sam.application_password}`).toString("base64")}`);
await desk.seed();

const board = await fetch(`${base}/admin/queues/api/queues`, { headers: { authorization } });
if (!board.ok) {
  console.error(`Bull Board answered ${board.status}`);
  await shutdown(1);
}
console.log(`
  Bull Board is up after ${seconds()} s.

  Bull Board  ${base}/admin/queues      (sign in: admin / ${password})
  Console     ${base}/console           (sign in: admin / ${password}; an administrator: every page)
  Console     ${base}/console           (sign in: sam / ${samPassword}; a staff member)
  API docs    ${base}/docs
  REST API    ${base}/middleware/v1   (HTTP Basic: admin / ${admin.application_password})
  Logs        logs/demo/   Mail sent   kept by the SMTP sink (counted below)

  Driving ${MINUTES} minute(s) of traffic: orders from the ERP, disputes from the
  acquirer, shipments, tracking and stock syncs, product webhooks, a report; and
  osTicket's signals (new tickets, replies, staff notes; one turns CRITICAL),
  urgency analyses by a fake AI provider, Sam's Harvest timer and time entry,
  and a question to the assistant.
`);

async function report(prefix: string): Promise<{ failed: string[] }> {
  const [commerce, management] = await Promise.all([traffic.counts(), desk.counts()]);
  console.log(`${prefix}${commerce.line}\n  desk: ${management.line}`);
  return commerce;
}

let answerShown = false;
function showAnswer(): void {
  if (answerShown || !desk.answer) return;
  answerShown = true;
  console.log(`  Assistant: sam asked "${desk.answer.question}"\n  and got: "${desk.answer.text}"`);
}

// Every kind of commerce traffic comes round within 10 steps: the demo takes at least those, however slow the machine.
const ROUND = 10;
const deadline = Date.now() + MINUTES * 60_000;
let nextReport = Date.now() + 15_000;
for (let step = 1; Date.now() < deadline || step <= ROUND; step += 1) {
  await Promise.all([traffic.tick(), desk.tick()]);
  showAnswer();
  if (Date.now() >= nextReport) {
    await report(`  [${seconds()} s] `);
    nextReport += 15_000;
  }
  await sleep(2000);
}
await desk.finish();
showAnswer();
await traffic.finish();
const final = await report(`\n  Done after ${seconds()} s: `);
if (final.failed.length) console.log(`  Failed jobs: ${final.failed.join(", ")} (see Bull Board)`);
if (EXIT_AFTER) await shutdown(final.failed.length ? 1 : 0);
console.log("\n  Still running for you to look around; Ctrl-C stops everything.");
