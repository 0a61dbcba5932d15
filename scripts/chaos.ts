// `pnpm chaos [scenario ...]`: runs the platform (API + worker, real
// processes) against a scratch database, a Redis of its own and fakes of the
// payment gateway, the fraud service and the ERP, sends acquirer dispute
// webhooks (and, in the Redis failover and wrong-database scenarios, storefront
// orders) while a fault happens, and prints per scenario and kind how many were sent,
// accepted, processed, duplicated and lost; delivery-failure sends a CRITICAL alert
// through an SMTP server and an SMS provider that each refuse one of two recipients.
// Exits 1 when any scenario lost or duplicated one. Needs MariaDB and redis-server; all scenarios take about
// ten minutes, and naming some runs only those.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { createMerchant } from "@mw/domains/disputes";
import { createPrisma } from "@mw/platform";
import { FakeErp } from "../test/fakes/erp.ts";
import { FakeFraud } from "../test/fakes/fraud.ts";
import { FakeGateway } from "../test/fakes/gateway.ts";
import { FakeSms } from "../test/fakes/sms.ts";
import { FakeSmtp } from "../test/fakes/smtp.ts";
import { createSiteWithKey, orderBody, seedItems } from "../test/support/fixtures.ts";
import { dropDatabase, migrate } from "./migrations/apply.ts";
import { ChaosRedis, freePort, masterOfQueue, PlatformProcess, TcpProxy } from "./chaos/harness.ts";
import { runDeliveryFailure } from "./chaos/delivery-failure.ts";
import { droppedJobs, type Acknowledged } from "./chaos/dropped.ts";
import { acquirer, disputePayload, sendSpread, storefront } from "./chaos/traffic.ts";
import { failedJobs, runWorkerOnOtherDatabase, type Refusal } from "./chaos/wrong-database.ts";
import { startRedisCluster, type LocalRedisCluster } from "./services/redis-cluster.ts";
import { startRedisSentinel, type LocalRedisSentinel } from "./services/redis-sentinel.ts";
import { seedFraudSite, seedSales } from "./support/seed.ts";

const SCENARIOS = {
  single: ["worker-kill", "stall-twice", "redis-outage", "redis-empty", "db-outage", "wrong-database", "delivery-failure"],
  sentinel: ["sentinel-failover", "unreplicated-failover"],
  cluster: ["cluster-master-kill"],
} as const;
const requested = process.argv.slice(2);
const known: string[] = Object.values(SCENARIOS).flat();
const unknown = requested.filter((name) => !known.includes(name));
if (unknown.length) {
  console.error(`unknown scenario ${unknown.join(", ")}; known: ${known.join(", ")}`);
  process.exit(2);
}
const wanted = (name: string) => requested.length === 0 || requested.includes(name);

const PER_SCENARIO = Number(process.env.CHAOS_DISPUTES ?? 40);
/** How long a scenario may take to process everything it accepted: the inbox sweep runs every minute for rows older than 30 s. */
const SETTLE_MS = Number(process.env.CHAOS_SETTLE_MS ?? 150_000);
/** How long the sentinels and the cluster may take to promote a replica after a kill. */
const FAILOVER_MS = 30_000;
const MID = "4242";
const GATEWAY_KEY = randomBytes(16).toString("hex");
const FRAUD_KEY = randomBytes(16).toString("hex");
const ERP_TOKEN = randomBytes(16).toString("hex");
const SALE_DATE = "2026-10-01";
const PREFIX = "mwchaos";
/** The processes' log files, and at the end each one's whole output (stdout and stderr: a crash's trace is only there). */
const LOG_DIR = "/tmp/mw-chaos-logs";

const databaseUrl = process.env.CHAOS_DATABASE_URL ?? "mysql://mw:mw@127.0.0.1:3306/mw_chaos";
await dropDatabase(databaseUrl);
await migrate(databaseUrl);
const encryptionKey = randomBytes(32);
const prisma = createPrisma(databaseUrl);
const gateway = await new FakeGateway().start();
const fraud = await new FakeFraud(new Map([[FRAUD_KEY, "chaos-team"]])).start();
const erp = await new FakeErp(ERP_TOKEN).start();
const SMS_SID = "AC-chaos";
const SMS_TOKEN = randomBytes(16).toString("hex");
const smtp = await new FakeSmtp().start();
const sms = await new FakeSms(SMS_SID, SMS_TOKEN).start();
const database = new URL(databaseUrl);
const dbProxy = await new TcpProxy(Number(database.port || 3306), database.hostname).start();
const apiPort = await freePort();

await createMerchant({ prisma }, encryptionKey, { mid: MID, security_key: GATEWAY_KEY });
const site = await seedFraudSite(prisma, encryptionKey, { name: "Chaos shop", site_url: "https://chaos.example", fraud_team_id: "chaos-team", fraudKey: FRAUD_KEY });
await seedItems(prisma, ["SKU-A"]);
const shop = await createSiteWithKey(prisma, { name: "Chaos storefront" });

/** The Redis the platform runs on now, and what the topology asks of it. */
let redisUrl = "";
let redisEnv: Record<string, string> = {};

let scenarioIndex = 0;
function environment(): Record<string, string> {
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${dbProxy.port}`;
  return {
    NODE_ENV: "production",
    // Plain HTTP on 127.0.0.1, no TLS proxy in front.
    REQUIRE_HTTPS: "false",
    DATABASE_URL: url.toString(),
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: PREFIX,
    ENCRYPTION_KEY: encryptionKey.toString("hex"),
    PORT: String(apiPort),
    LOG_STDOUT: "true",
    // Read by this script (readiness), so JSON whatever the terminal or .env says.
    LOG_FORMAT: "json",
    LOG_LEVEL: "info",
    LOG_DIR,
    GATEWAY_QUERY_URL: gateway.url,
    FRAUD_API_URL: fraud.url,
    ERP_BASE_URL: erp.url,
    ERP_TOKEN,
    WORKER_QUEUES: "disputes,webhooks,orders,notifications",
    // The alerts' providers (delivery-failure), with retries seconds apart rather than minutes.
    SMTP_URL: smtp.url,
    SMS_API_URL: sms.url,
    SMS_ACCOUNT_SID: SMS_SID,
    SMS_AUTH_TOKEN: SMS_TOKEN,
    SMS_FROM: "+15550001111",
    ALERT_DELIVERY_ATTEMPTS: "3",
    ALERT_DELIVERY_BACKOFF_MS: "500",
    // Fast recovery clocks, so each scenario settles in seconds rather than the production minutes.
    WORKER_LOCK_DURATION_MS: "2000",
    WORKER_STALLED_INTERVAL_MS: "1000",
    SCHEDULE_RECONCILE_INTERVAL_MS: "2000",
    SHUTDOWN_TIMEOUT_MS: "5000",
    ...redisEnv,
  };
}
const api = new PlatformProcess("packages/api/src/main.ts", environment);
const worker = new PlatformProcess("packages/worker/src/main.ts", environment);
const API_READY = /"message":"api listening"/;
const WORKER_READY = /"message":"schedules reconciled"/;

/** Seeds `count` sales with orders, and answers their webhook bodies. */
async function seed(scenario: string, count: number): Promise<string[]> {
  scenarioIndex += 1;
  const bodies: string[] = [];
  const sales = [];
  for (let i = 0; i < count; i += 1) {
    const auth = `S${scenarioIndex}A${i}`;
    gateway.addTransaction(GATEWAY_KEY, { transaction_id: String(scenarioIndex * 100_000 + i), authorization_code: auth, date: new Date(`${SALE_DATE}T12:00:00Z`), order_id: `C-${scenarioIndex}-${i}` });
    // Exported long ago (imported 1): the sales behind the disputes, not orders for the order sweep to send.
    sales.push({ number: `C-${scenarioIndex}-${i}`, imported: 1, dateadded: new Date(`${SALE_DATE}T12:00:00Z`), payload_hash: "c".repeat(64) });
    bodies.push(disputePayload(`${scenario}-${i}`, MID, auth, SALE_DATE));
  }
  await seedSales(prisma, site.id, sales);
  return bodies;
}

interface Tally {
  scenario: string;
  kind: "disputes" | "orders";
  sent: number;
  accepted: number;
  processed: number;
  duplicated: number;
  lost: number;
  seconds: number;
}

interface Counted {
  stored: number;
  processed: number;
  duplicated: number;
  /** Repeats the receiving system refused (no second effect), shown apart. */
  resent: number;
}

const twice = (ids: string[]) => ids.length - new Set(ids).size;

/**
 * Disputes, counted from what a user would see: rows stored for the
 * scenario's cases, rows processed, and duplicated effects (a chargeback the
 * fraud service holds twice, or two chargeback records of one case). A
 * submission the service refused as a repeat (409, after a crash between its
 * answer and our write) is `resent`: it left no second chargeback.
 */
async function tallyDisputes(scenario: string): Promise<Counted> {
  const rows = await prisma.webhookEvent.findMany({ where: { event_id: { startsWith: `acquirer_case_${scenario}-` } }, select: { processed_at: true } });
  const records = await prisma.chargeback.findMany({ where: { case_id: { startsWith: `${scenario}-` } }, select: { case_id: true } });
  const held = fraud.chargebacks.filter((stored) => stored.chargebackId.startsWith(`${scenario}-`));
  const submissions = fraud.requests.filter((request) => request.method === "POST" && request.body.includes(`"${scenario}-`)).length;
  return {
    stored: rows.length,
    processed: rows.filter((row) => row.processed_at).length,
    duplicated: twice(held.map((stored) => stored.chargebackId)) + twice(records.map((record) => record.case_id)),
    resent: submissions - held.length,
  };
}

/** A scenario's storefront order numbers start with this (order numbers hold at most 20 characters). */
const orderPrefix = (index: number) => `O${index}-`;

/** Orders whose number starts with `prefix`: stored, exported to the ERP (imported), and sales orders the ERP holds twice. */
async function tallyOrders(prefix: string): Promise<Counted> {
  const rows = await prisma.order.findMany({ where: { site_id: shop.siteId, number: { startsWith: prefix } }, select: { imported: true } });
  const external = `${shop.siteId}-${prefix}`;
  const held = erp.salesOrders.filter((order) => order.externalDocumentNumber.startsWith(external));
  const creates = erp.requests.filter((request) => request.method === "POST" && request.body.includes(`"${external}`)).length;
  return { stored: rows.length, processed: rows.filter((row) => row.imported === 1).length, duplicated: twice(held.map((order) => order.externalDocumentNumber)), resent: creates - held.length };
}

function report(scenario: string, kind: Tally["kind"], sent: number, accepted: number, counted: Counted, started: number, note = ""): Tally {
  const line: Tally = { scenario, kind, sent, accepted, processed: counted.processed, duplicated: counted.duplicated, lost: accepted - counted.processed, seconds: Math.round((Date.now() - started) / 1000) };
  console.log(
    `${scenario.padEnd(22)} ${kind.padEnd(8)} sent ${String(sent).padStart(3)}  accepted ${String(line.accepted).padStart(3)}  processed ${String(line.processed).padStart(3)}  ` +
      `duplicated ${line.duplicated}  lost ${line.lost}  (resent ${counted.resent}${note}, ${line.seconds} s)`,
  );
  return line;
}

interface RunOptions {
  count?: number;
  spreadMs?: number;
  /** Storefront orders beside the disputes. */
  orders?: boolean;
  /** Counts, once the traffic is done, the acknowledged jobs a failover dropped (printed beside the tallies). */
  dropped?: (acknowledged: Acknowledged) => Promise<number>;
  /** false: print only the dropped jobs, without waiting for the rest to be processed (a comparison run). */
  settle?: boolean;
}

/** Disputes (and orders) sent while `fault` runs; one line per kind once all accepted is processed or SETTLE_MS passed. */
async function run(scenario: string, fault: () => Promise<void>, options: RunOptions = {}): Promise<Tally[]> {
  const { count = PER_SCENARIO, spreadMs = 8_000 } = options;
  const started = Date.now();
  const bodies = await seed(scenario, count);
  const root = `http://127.0.0.1:${apiPort}/middleware/v1`;
  const disputeTraffic = sendSpread(acquirer(`${root}/webhooks/acquirer`), bodies, spreadMs, started + 60_000);
  const orders = orderPrefix(scenarioIndex);
  const orderNumbers = options.orders ? Array.from({ length: count }, (_, i) => `${orders}${i}`) : [];
  const orderTraffic = sendSpread(storefront(`${root}/external/orders`, shop.key), orderNumbers.map((number) => JSON.stringify(orderBody(number))), spreadMs, started + 60_000);
  await fault();
  const [disputeStatuses, orderStatuses] = await Promise.all([disputeTraffic, orderTraffic]);
  const dropped = await options.dropped?.({
    caseIds: bodies.map((_, i) => `${scenario}-${i}`).filter((_, i) => disputeStatuses[i] === 202),
    orders: orderNumbers.filter((_, i) => orderStatuses[i] === 201 || orderStatuses[i] === 200),
  });
  const accepted = { disputes: disputeStatuses.filter(Boolean).length, orders: orderStatuses.filter(Boolean).length };
  if (options.settle === false) {
    const acknowledged = disputeStatuses.filter((status) => status === 202).length + orderStatuses.filter((status) => status === 201 || status === 200).length;
    console.log(`${scenario.padEnd(22)} acknowledged ${acknowledged} (disputes 202, orders 201), of which the failover dropped ${dropped}`);
    return [];
  }
  const deadline = Date.now() + SETTLE_MS;
  const counts = () => Promise.all([tallyDisputes(scenario), tallyOrders(orders)]);
  let [disputeCount, orderCount] = await counts();
  while ((disputeCount.processed < disputeCount.stored || orderCount.processed < orderCount.stored) && Date.now() < deadline) {
    await sleep(1000);
    [disputeCount, orderCount] = await counts();
  }
  const note = dropped === undefined ? "" : `, acknowledged jobs the failover dropped ${dropped}`;
  // A process that died mid-scenario explains whatever was not processed; say so beside the counts.
  for (const exit of [api, worker].flatMap((platform) => platform.unexpectedExits.splice(0))) {
    console.error(`${scenario}: ${exit}`);
    crashed.push(scenario);
  }
  const lines = [report(scenario, "disputes", count, accepted.disputes, disputeCount, started, note)];
  if (options.orders) lines.push(report(scenario, "orders", count, accepted.orders, orderCount, started));
  return lines;
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

/** Polls `check` every 200 ms until it holds; throws naming `what` after `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = FAILOVER_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

const results: Tally[] = [];
/** Scenarios during which the API or the worker exited without being asked to. */
const crashed: string[] = [];
/** Scenarios whose fault the platform should have refused and did not (wrong-database), each with why. */
const unrefused: string[] = [];
/** Deliveries that reached a recipient other than exactly once, or whose refused recipient never reached the operators (delivery-failure). */
const misdelivered: string[] = [];
/** Runs the wanted scenarios of one Redis topology: starts it, then API and worker on it; stops all three after. */
async function group(names: readonly string[], start: () => Promise<() => Promise<void>>, scenarios: (name: string) => Promise<void>): Promise<void> {
  if (!names.some(wanted)) return;
  const stopTopology = await start();
  try {
    await api.start(API_READY);
    await worker.start(WORKER_READY);
    for (const name of names) if (wanted(name)) await scenarios(name);
  } finally {
    await worker.stop();
    await api.stop();
    await stopTopology();
  }
}

let sentinel: LocalRedisSentinel | undefined;
let cluster: LocalRedisCluster | undefined;
try {
  const redis = new ChaosRedis(await freePort());
  await group(
    SCENARIOS.single,
    async () => {
      redisUrl = `redis://127.0.0.1:${redis.port}`;
      redisEnv = {};
      await redis.start(true);
      return async () => {
        await redis.kill();
        redis.wipe();
      };
    },
    async (name) => {
      switch (name) {
        case "worker-kill":
          results.push(
            ...(await run(name, async () => {
              const release = slowGateway(1500);
              await sleep(3000);
              await restartWorkerAfterKill();
              await sleep(3000);
              await restartWorkerAfterKill();
              release();
            })),
          );
          break;
        case "stall-twice":
          results.push(
            ...(await run(
              name,
              async () => {
                // Fewer disputes than the worker's concurrency, held at the gateway: the same jobs are active at
                // both kills, so BullMQ fails them as stalled twice and only the inbox sweep brings them back.
                const release = slowGateway(15_000);
                await sleep(3000);
                await worker.stop("SIGKILL");
                await worker.start(WORKER_READY);
                await sleep(5000);
                await worker.stop("SIGKILL");
                release();
                await worker.start(WORKER_READY);
              },
              { count: 5, spreadMs: 0 },
            )),
          );
          break;
        case "redis-outage":
          results.push(
            ...(await run(name, async () => {
              await sleep(3000);
              await redis.kill();
              await sleep(5000);
              await redis.start(true);
            })),
          );
          break;
        case "redis-empty":
          results.push(
            ...(await run(name, async () => {
              await sleep(3000);
              await redis.kill();
              redis.wipe();
              await sleep(2000);
              await redis.start(false);
            })),
          );
          break;
        case "wrong-database": {
          // A worker on another database (an empty one, as a mistyped DATABASE_URL reaches) with this Redis and
          // QUEUE_PREFIX while orders arrive: it must exit 78 with one line and fail none of the prefix's jobs.
          const otherUrl = `${databaseUrl}_other`;
          await dropDatabase(otherUrl);
          await migrate(otherUrl);
          const failedBefore = await failedJobs(redisUrl, PREFIX, ["orders", "disputes", "webhooks"]);
          let refusal: Refusal = { code: null, lines: [] };
          results.push(
            ...(await run(
              name,
              async () => {
                await sleep(2000);
                refusal = await runWorkerOnOtherDatabase(environment(), otherUrl);
              },
              { orders: true },
            )),
          );
          const failed = (await failedJobs(redisUrl, PREFIX, ["orders", "disputes", "webhooks"])) - failedBefore;
          console.log(`${name.padEnd(22)} refused: exit ${refusal.code}, failed ${failed}; it said: ${refusal.lines.join(" / ")}`);
          if (refusal.code !== 78 || refusal.lines.length !== 1 || failed !== 0) unrefused.push(`${name} (exit ${refusal.code}, ${refusal.lines.length} lines, failed ${failed})`);
          await dropDatabase(otherUrl);
          break;
        }
        case "delivery-failure": {
          const started = Date.now();
          for (const result of await runDeliveryFailure(prisma, redisUrl, PREFIX, { smtp, sms })) {
            const alert = result.operatorAlert;
            console.log(
              `${name.padEnd(22)} ${result.channel.padEnd(8)} recipients 2  refused 1  other delivered ${result.delivered}  ` +
                `refused one to the operators: ${alert ? `${alert.status} (${alert.last_error})` : "no"}  history: ${result.outcome}  (${Math.round((Date.now() - started) / 1000)} s)`,
            );
            if (result.delivered !== 1 || alert?.status !== "undelivered") misdelivered.push(`${name} ${result.channel} (other delivered ${result.delivered}, operator alert ${alert?.status ?? "none"})`);
          }
          break;
        }
        case "db-outage":
          results.push(
            ...(await run(name, async () => {
              await sleep(3000);
              dbProxy.set("cut");
              await sleep(5000);
              dbProxy.set("hang");
              await sleep(5000);
              dbProxy.set("pass");
            })),
          );
          break;
      }
    },
  );

  await group(
    SCENARIOS.sentinel,
    async () => {
      sentinel = await startRedisSentinel();
      redisUrl = sentinel.url;
      // A replicated deployment's setting (docs/deployment.md): an add counts once the replica holds the job.
      redisEnv = { REDIS_WAIT_REPLICAS: "1", REDIS_WAIT_TIMEOUT_MS: "500" };
      return () => sentinel!.stop();
    },
    async (name) => {
      const local = sentinel!;
      /** Kills the master -9, waits for the sentinels to promote the replica, and starts the old one again (as the new replica). */
      const failover = async () => {
        const master = (await local.master())!;
        await master.kill();
        await until(async () => (await local.master())?.port !== master.port, "the sentinels to promote the replica");
        return async () => {
          await master.start();
          await until(async () => {
            const role = (await (await local.master())?.ask("ROLE")) as [string, number, unknown[]] | undefined;
            return role?.[2].length === 1;
          }, "the old master to rejoin as the replica");
        };
      };
      if (name === "sentinel-failover") {
        results.push(
          ...(await run(
            name,
            async () => {
              const release = slowGateway(1500);
              await sleep(3000);
              const rejoin = await failover();
              release();
              await rejoin();
            },
            { orders: true },
          )),
        );
      }
      if (name === "unreplicated-failover") {
        // The replica is cut off, writes reach the master alone, the master dies, the cut-off replica is
        // promoted: whatever the master acknowledged meanwhile is gone. The worker is stopped meanwhile, so
        // acknowledged jobs wait in Redis rather than finish before the kill. First without WAIT, to show the
        // loss; then as the platform runs a replicated deployment (REDIS_WAIT_REPLICAS=1).
        const fault = async () => {
          const master = (await local.master())!;
          const replica = local.nodes.find((node) => node !== master)!;
          // The replica follows the master through a proxy, the network link a partition would cut.
          const link = await new TcpProxy(master.port).start();
          await replica.ask("REPLICAOF", "127.0.0.1", String(link.port));
          await until(async () => ((await replica.ask("ROLE")) as unknown[] | undefined)?.[3] === "connected", "the replica to follow through the proxy");
          await sleep(2000);
          await worker.stop();
          link.set("hang");
          await sleep(3000);
          await master.kill();
          link.set("cut");
          await until(async () => (await local.master())?.port === replica.port, "the sentinels to promote the cut-off replica");
          await link.stop();
          await worker.start(WORKER_READY);
          await master.start();
          await until(async () => ((await replica.ask("ROLE")) as [string, number, unknown[]] | undefined)?.[2].length === 1, "the old master to rejoin as the replica");
        };
        const dropped = (acknowledged: Acknowledged) => droppedJobs(prisma, redisUrl, PREFIX, shop.siteId, acknowledged);
        redisEnv = { REDIS_WAIT_REPLICAS: "0" };
        await api.stop();
        await api.start(API_READY);
        console.log("unreplicated-nowait: the same fault without WAIT (REDIS_WAIT_REPLICAS=0), for comparison; not counted");
        await run("unreplicated-nowait", fault, { orders: true, dropped, settle: false });
        redisEnv = { REDIS_WAIT_REPLICAS: "1", REDIS_WAIT_TIMEOUT_MS: "500" };
        await api.stop();
        await api.start(API_READY);
        results.push(...(await run(name, fault, { orders: true, dropped })));
      }
    },
  );

  await group(
    SCENARIOS.cluster,
    async () => {
      cluster = await startRedisCluster();
      redisUrl = cluster.url;
      redisEnv = { REDIS_WAIT_REPLICAS: "1", REDIS_WAIT_TIMEOUT_MS: "500" };
      return () => cluster!.stop();
    },
    async (name) => {
      const local = cluster!;
      results.push(
        ...(await run(
          name,
          async () => {
            const release = slowGateway(1500);
            await sleep(3000);
            const master = await masterOfQueue(local, PREFIX, "disputes");
            await master.kill();
            release();
            await until(async () => (await local.masters()).length === 3 && !(await local.masters()).includes(master), "a replica to take over the disputes queue's slots");
            await master.start();
          },
          { orders: true },
        )),
      );
    },
  );
} finally {
  await worker.stop();
  await api.stop();
  await Promise.all([gateway.stop(), fraud.stop(), erp.stop(), dbProxy.stop(), smtp.stop(), sms.stop()]);
  await prisma.$disconnect();
  mkdirSync(LOG_DIR, { recursive: true });
  writeFileSync(`${LOG_DIR}/api.out`, api.output);
  writeFileSync(`${LOG_DIR}/worker.out`, worker.output);
}

const failed = [
  ...results.filter((result) => result.lost !== 0 || result.duplicated !== 0 || result.accepted !== result.sent).map((result) => `${result.scenario} ${result.kind}`),
  ...crashed.map((scenario) => `${scenario} (a platform process exited on its own)`),
  ...unrefused,
  ...misdelivered,
];
if (failed.length) console.error(`FAILED: ${failed.join(", ")} (the processes' output: ${LOG_DIR}/api.out, ${LOG_DIR}/worker.out)`);
process.exit(failed.length ? 1 : 0);
