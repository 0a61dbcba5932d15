// `pnpm chaos`: runs the platform (API + worker, real processes) against a
// scratch database, a Redis of its own and fakes of the payment gateway and
// fraud service, sends acquirer dispute webhooks while a fault happens, and
// prints per scenario how many were accepted, processed, duplicated and lost.
// Exits 1 when any scenario lost or duplicated one. Needs MariaDB and
// redis-server; takes about five minutes.
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createMerchant } from "@mw/shared/disputes";
import { createPrisma, encryptSecret } from "@mw/platform";
import { FakeFraud } from "../test/fakes/fraud.ts";
import { FakeGateway } from "../test/fakes/gateway.ts";
import { dropDatabase, migrate } from "./migrations/apply.ts";
import { ChaosRedis, freePort, PlatformProcess, TcpProxy } from "./chaos/harness.ts";
import { disputePayload, sendSpread } from "./chaos/traffic.ts";

const PER_SCENARIO = Number(process.env.CHAOS_DISPUTES ?? 40);
/** How long a scenario may take to process everything it accepted: the outbox sweep runs every minute for rows older than 30 s. */
const SETTLE_MS = Number(process.env.CHAOS_SETTLE_MS ?? 150_000);
const MID = "4242";
const GATEWAY_KEY = randomBytes(16).toString("hex");
const FRAUD_KEY = randomBytes(16).toString("hex");
const SALE_DATE = "2026-10-01";

const databaseUrl = process.env.CHAOS_DATABASE_URL ?? "mysql://mw:mw@127.0.0.1:3306/mw_chaos";
await dropDatabase(databaseUrl);
await migrate(databaseUrl);
const encryptionKey = randomBytes(32);
const prisma = createPrisma(databaseUrl);
const gateway = await new FakeGateway().start();
const fraud = await new FakeFraud(new Map([[FRAUD_KEY, "chaos-team"]])).start();
const database = new URL(databaseUrl);
const dbProxy = await new TcpProxy(Number(database.port || 3306), database.hostname).start();
const redis = new ChaosRedis(await freePort());
const apiPort = await freePort();

await createMerchant({ prisma }, encryptionKey, { mid: MID, security_key: GATEWAY_KEY });
const site = await prisma.site.create({
  data: { name: "Chaos shop", platform: "storefront_a", site_url: "https://chaos.example", fraud_team_id: "chaos-team", fraud_api_key: encryptSecret(FRAUD_KEY, encryptionKey) },
});

let scenarioIndex = 0;
function environment(): Record<string, string> {
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${dbProxy.port}`;
  return {
    NODE_ENV: "production",
    // Plain HTTP on 127.0.0.1, no TLS proxy in front.
    REQUIRE_HTTPS: "false",
    DATABASE_URL: url.toString(),
    REDIS_URL: `redis://127.0.0.1:${redis.port}`,
    QUEUE_PREFIX: "mwchaos",
    ENCRYPTION_KEY: encryptionKey.toString("hex"),
    PORT: String(apiPort),
    LOG_STDOUT: "true",
    // Read by this script (readiness), so JSON whatever the terminal or .env says.
    LOG_FORMAT: "json",
    LOG_LEVEL: "info",
    LOG_DIR: "/tmp/mw-chaos-logs",
    GATEWAY_QUERY_URL: gateway.url,
    FRAUD_API_URL: fraud.url,
    WORKER_QUEUES: "disputes,webhooks",
    // Fast recovery clocks, so each scenario settles in seconds rather than the production minutes.
    WORKER_LOCK_DURATION_MS: "2000",
    WORKER_STALLED_INTERVAL_MS: "1000",
    SCHEDULE_RECONCILE_INTERVAL_MS: "2000",
    SHUTDOWN_TIMEOUT_MS: "5000",
  };
}
const api = new PlatformProcess("packages/api/src/main.ts", environment);
const worker = new PlatformProcess("packages/worker/src/main.ts", environment);
const WORKER_READY = /"message":"schedules reconciled"/;

/** Seeds `count` sales with orders, and answers their webhook bodies. */
async function seed(scenario: string, count: number): Promise<string[]> {
  scenarioIndex += 1;
  const bodies: string[] = [];
  const orders = [];
  for (let i = 0; i < count; i += 1) {
    const auth = `S${scenarioIndex}A${i}`;
    gateway.addTransaction(GATEWAY_KEY, { transaction_id: String(scenarioIndex * 100_000 + i), authorization_code: auth, date: new Date(`${SALE_DATE}T12:00:00Z`), order_id: `C-${scenarioIndex}-${i}` });
    orders.push({ site_id: site.id, number: `C-${scenarioIndex}-${i}`, dateadded: new Date(`${SALE_DATE}T12:00:00Z`), payment_method: "pay_1", contact_id: 27111, shipping_agent_code: "FEDEX", shipping_agent_service: "GROUND_HOME_DELIVERY", payload_hash: "c".repeat(64) });
    bodies.push(disputePayload(`${scenario}-${i}`, MID, auth, SALE_DATE));
  }
  await prisma.order.createMany({ data: orders });
  return bodies;
}

interface Tally {
  scenario: string;
  sent: number;
  accepted: number;
  processed: number;
  duplicated: number;
  lost: number;
  seconds: number;
}


/**
 * Counted from what a user would see: rows stored for the scenario's cases,
 * rows processed, and duplicated effects (a chargeback the fraud service
 * holds twice, or two chargeback records of one case). A submission the
 * service refused as a repeat (409, after a crash between its answer and our
 * write) is counted apart as `resent`: it left no second chargeback.
 */
async function tally(scenario: string): Promise<{ stored: number; processed: number; duplicated: number; resent: number }> {
  const rows = await prisma.webhookEvent.findMany({ where: { event_id: { startsWith: `acquirer_case_${scenario}-` } }, select: { processed_at: true } });
  const records = await prisma.chargeback.findMany({ where: { case_id: { startsWith: `${scenario}-` } }, select: { case_id: true } });
  const held = fraud.chargebacks.filter((stored) => stored.chargebackId.startsWith(`${scenario}-`));
  const twice = (ids: string[]) => ids.length - new Set(ids).size;
  const submissions = fraud.requests.filter((request) => request.method === "POST" && request.body.includes(`"${scenario}-`)).length;
  return {
    stored: rows.length,
    processed: rows.filter((row) => row.processed_at).length,
    duplicated: twice(held.map((stored) => stored.chargebackId)) + twice(records.map((record) => record.case_id)),
    resent: submissions - held.length,
  };
}

async function run(scenario: string, fault: () => Promise<void>, count = PER_SCENARIO, spreadMs = 8_000): Promise<Tally> {
  const started = Date.now();
  const bodies = await seed(scenario, count);
  const traffic = sendSpread(`http://127.0.0.1:${apiPort}/middleware/v1/webhooks/acquirer`, bodies, spreadMs, started + 60_000);
  await fault();
  const accepted = await traffic;
  const deadline = Date.now() + SETTLE_MS;
  let result = await tally(scenario);
  while (result.processed < result.stored && Date.now() < deadline) {
    await sleep(1000);
    result = await tally(scenario);
  }
  const line = { scenario, sent: count, accepted, processed: result.processed, duplicated: result.duplicated, lost: accepted - result.processed, seconds: Math.round((Date.now() - started) / 1000) };
  console.log(
    `${scenario.padEnd(14)} sent ${String(count).padStart(3)}  accepted ${String(line.accepted).padStart(3)}  processed ${String(line.processed).padStart(3)}  ` +
      `duplicated ${line.duplicated}  lost ${line.lost}  (resent ${result.resent}, ${line.seconds} s)`,
  );
  return line;
}

/** Holds the gateway's answers for `ms`, so jobs stay active long enough for a kill to catch them mid-job. */
function slowGateway(ms: number): () => void {
  return gateway.intercept(async () => {
    await sleep(ms);
    return undefined;
  });
}

async function restartWorkerAfterKill(): Promise<void> {
  await worker.stop("SIGKILL");
  await sleep(500);
  await worker.start(WORKER_READY);
}

const results: Tally[] = [];
try {
  await redis.start(true);
  await api.start(/"message":"api listening"/);
  await worker.start(WORKER_READY);

  results.push(
    await run("worker-kill", async () => {
      const release = slowGateway(1500);
      await sleep(3000);
      await restartWorkerAfterKill();
      await sleep(3000);
      await restartWorkerAfterKill();
      release();
    }),
  );

  results.push(
    await run(
      "stall-twice",
      async () => {
        // Fewer disputes than the worker's concurrency, held at the gateway: the same jobs are active at
        // both kills, so BullMQ fails them as stalled twice and only the outbox sweep brings them back.
        const release = slowGateway(15_000);
        await sleep(3000);
        await worker.stop("SIGKILL");
        await worker.start(WORKER_READY);
        await sleep(5000);
        await worker.stop("SIGKILL");
        release();
        await worker.start(WORKER_READY);
      },
      5,
      0,
    ),
  );

  results.push(
    await run("redis-outage", async () => {
      await sleep(3000);
      await redis.kill();
      await sleep(5000);
      await redis.start(true);
    }),
  );

  results.push(
    await run("redis-empty", async () => {
      await sleep(3000);
      await redis.kill();
      redis.wipe();
      await sleep(2000);
      await redis.start(false);
    }),
  );

  results.push(
    await run("db-outage", async () => {
      await sleep(3000);
      dbProxy.set("cut");
      await sleep(5000);
      dbProxy.set("hang");
      await sleep(5000);
      dbProxy.set("pass");
    }),
  );
} finally {
  await worker.stop();
  await api.stop();
  await redis.kill();
  redis.wipe();
  await Promise.all([gateway.stop(), fraud.stop(), dbProxy.stop()]);
  await prisma.$disconnect();
}

const failed = results.filter((result) => result.lost !== 0 || result.duplicated !== 0 || result.accepted !== result.sent);
if (failed.length) console.error(`FAILED: ${failed.map((result) => result.scenario).join(", ")} (worker output in /tmp/mw-chaos-logs)`);
process.exit(failed.length ? 1 : 0);
