// `pnpm soak --minutes N` (issue 44): the platform (API + worker, real processes, a database and queue prefix of
// their own) under steady traffic for N minutes: storefront orders (exported to and read back from the fake ERP),
// acquirer dispute webhooks (linked against the fake gateway, submitted to the fake fraud service) and
// ticket-system signals (each a thread entry whose ticket the fake AI analyses), at SOAK_SHARE (default half) of
// the capacity it first measures, with the retention jobs running every minute on a short retention
// (SOAK_RETENTION_SECONDS) and finished jobs kept minutes in Redis (SOAK_JOBS_KEPT_SECONDS, at most SOAK_JOBS_KEPT_MAX
// per queue). It samples API and worker RSS and heap, Redis used_memory and the database's size, and
// prints a last line `SOAK_RESULT {json}` with growth per 10,000 events after the warm-up (the first quarter,
// at least one minute).
//
// Exit status (what CI gates on): 1 when an event sent was lost (not stored, or not processed once the traffic
// stopped and the workers had SOAK_SETTLE_SECONDS to drain), when a process died, or when a row the retention
// should have removed (older than its retention plus two schedule periods) is still there. Memory and size
// growth are reported, not gated: in a few minutes on a shared machine they are mostly noise.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { OptionStore } from "@mw/domains/options";
import { createPrisma, createRedis, QUEUE_NAMES } from "@mw/platform";
import { FakeErp } from "../test/fakes/erp.ts";
import { FakeFraud } from "../test/fakes/fraud.ts";
import { FakeGateway } from "../test/fakes/gateway.ts";
import { FakeGemini } from "../test/fakes/gemini.ts";
import { createSiteWithKey, orderBody, seedItems } from "../test/support/fixtures.ts";
import { analysisAnswer, entrySignal } from "../test/support/tickets.ts";
import { acquirer, deliver, storefront, type Sender } from "../scripts/chaos/traffic.ts";
import { clearQueuePrefix, freshBenchEnvironment } from "./lib/database.ts";
import { disputeWebhookBody, seedDisputeWorld } from "./lib/dispute-fixtures.ts";
import { startProcess, startWorker, stopProcess } from "./lib/processes.ts";

const { values: args } = parseArgs({ options: { minutes: { type: "string", default: process.env.SOAK_MINUTES ?? "3" } } });
const MINUTES = Number(args.minutes);
if (!(MINUTES > 0)) throw new Error("--minutes takes a positive number");
const SHARE = Number(process.env.SOAK_SHARE ?? 0.5);
const RETENTION_SECONDS = Number(process.env.SOAK_RETENTION_SECONDS ?? 60);
const JOBS_KEPT_SECONDS = Number(process.env.SOAK_JOBS_KEPT_SECONDS ?? 120);
const JOBS_KEPT_MAX = Number(process.env.SOAK_JOBS_KEPT_MAX ?? 1000);
const SETTLE_SECONDS = Number(process.env.SOAK_SETTLE_SECONDS ?? 120);
const CALIBRATION_SECONDS = Number(process.env.SOAK_CALIBRATION_SECONDS ?? 15);
const SAMPLE_MS = 10_000;
const PORT = 3931;
const ROOT = `http://127.0.0.1:${PORT}`;
const AI_KEY = "soak-ticket-system-shared-key-2b9e71";
const PROVIDER_KEY = "AIzaSOAK-urgency";
const ERP_TOKEN = "soak-erp-token-5c1d";
const TICKETS = 200;
const SALES = 2000;
const PER_DAY = 200;
/** Of every six events: four orders, one dispute webhook, one ticket signal. */
const MIX = ["order", "order", "order", "order", "webhook", "signal"] as const;
type Kind = (typeof MIX)[number];
/**
 * Tables kept for good, whose growth is expected: business records, what the order list reads in their place
 * (search grams and kept counts, about 20 rows an order), and records one per thing (a ticket's knowledge vector).
 */
const BUSINESS = new Set([
  "orders",
  "order_lines",
  "order_addresses",
  "order_search_grams",
  "order_gram_counts",
  "order_counts",
  "dispute_linkages",
  "chargebacks",
  "tickets",
  "ticket_entries",
  "urgency_queue",
  "knowledge_vectors",
  "items",
  "sites",
  "site_api_keys",
  "merchant_accounts",
]);
const load = () => loadavg().map((n) => n.toFixed(2)).join(", ");
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

const gateway = await new FakeGateway().start();
const fraudKey = "soak-fraud-key-7d3e";
const fraud = await new FakeFraud(new Map([[fraudKey, "bench-team"]])).start();
const erp = await new FakeErp(ERP_TOKEN).start();
const gemini = await new FakeGemini(PROVIDER_KEY).start();
gemini.respond = () => analysisAnswer(40);
const retentionDays = String(RETENTION_SECONDS / 86_400);
const memoryDir = mkdtempSync(path.join(tmpdir(), "mw-soak-memory-"));
const { env, databaseUrl, key } = await freshBenchEnvironment("soak", {
  PORT: String(PORT),
  GATEWAY_QUERY_URL: gateway.url,
  FRAUD_API_URL: fraud.url,
  ERP_BASE_URL: erp.url,
  ERP_TOKEN,
  AI_BASE_URL: gemini.url,
  AI_API_KEY: PROVIDER_KEY,
  ALLOW_PRIVATE_URLS: "true",
  SOAK_MEMORY_DIR: memoryDir,
  // Every domain's purge every minute, on a retention of seconds: what a year of daily purges does, in minutes.
  RETENTION_SCHEDULE: "* * * * *",
  RETENTION_WEBHOOK_EVENTS_DAYS: retentionDays,
  RETENTION_SNAPSHOTS_DAYS: retentionDays,
  RETENTION_TICKET_CHANGES_DAYS: retentionDays,
  RETENTION_NOTIFICATIONS_DAYS: retentionDays,
  RETENTION_SYNC_RUNS_DAYS: retentionDays,
  RETENTION_SYNC_ERRORS_DAYS: retentionDays,
  RETENTION_OPERATOR_ALERTS_DAYS: retentionDays,
  // Finished jobs in Redis kept minutes, not a day: Redis reaches its plateau within the run rather than in hours.
  RETENTION_COMPLETED_JOBS_DAYS: String(JOBS_KEPT_SECONDS / 86_400),
  RETENTION_COMPLETED_JOBS_MAX: String(JOBS_KEPT_MAX),
  RETENTION_FAILED_JOBS_DAYS: String(JOBS_KEPT_SECONDS / 86_400),
  RETENTION_FAILED_JOBS_MAX: String(JOBS_KEPT_MAX),
  // Event streams trimmed at a tenth of their default, so they too are full within the warm-up.
  RETENTION_QUEUE_EVENTS_MAX: "1000",
  // The platform's own hourly and daily calls to outside systems this soak does not fake.
  TIME_SYNC_SCHEDULE: "0 0 1 1 *",
  MILESTONES_SCHEDULE: "0 0 1 1 *",
  KNOWLEDGE_REFRESH_SCHEDULE: "0 0 1 1 *",
});
const prisma = createPrisma(databaseUrl);
const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const database = new URL(databaseUrl).pathname.slice(1);

await new OptionStore(prisma, key).set({ ai_security_key: AI_KEY, urgency_gate_seconds: 0, urgency_max_per_run: 10_000 });
const world = { ...(await seedDisputeWorld(prisma, key, gateway, fraudKey, { sales: SALES, perDay: PER_DAY })), perDay: PER_DAY };
await seedItems(prisma, ["SKU-A"]);
const shop = await createSiteWithKey(prisma, { name: "Soak storefront" });

const probe = ["--import", "./bench/lib/memory-probe.mjs"];
const api = await startProcess("packages/api/src/main.ts", env, `${ROOT}/healthz`, probe);
const worker = await startWorker({ ...process.env, ...env }, probe);
// Whatever ends this script ends its platform processes too.
process.on("exit", () => {
  if (api.exitCode === null) api.kill("SIGKILL");
  if (worker.exitCode === null) worker.kill("SIGKILL");
});

const senders: Record<Kind, Sender> = {
  order: storefront(`${ROOT}/middleware/v1/external/orders`, shop.key),
  webhook: acquirer(`${ROOT}/middleware/v1/webhooks/acquirer`),
  signal: { url: `${ROOT}/tickets/v1/signals`, headers: { "ai-security-key": AI_KEY }, done: (status) => status === 202 || status === 200 },
};
const sent: Record<Kind, number> = { order: 0, webhook: 0, signal: 0 };
const gaveUp: Record<Kind, number> = { order: 0, webhook: 0, signal: 0 };
const entryIds: number[] = [];
let events = 0;
const inFlight = new Set<Promise<void>>();

/** One event of the mix, delivered until the platform took it (as its real sender retries). */
function send(): void {
  const kind = MIX[events % MIX.length]!;
  events += 1;
  sent[kind] += 1;
  const n = sent[kind];
  let body: string;
  if (kind === "order") body = JSON.stringify(orderBody(`SK${n}`));
  else if (kind === "webhook") body = disputeWebhookBody(world, `SOAK-${n}`, n);
  else {
    const signal = entrySignal(1 + (n % TICKETS), "M", `Order ${n} still not delivered, please check.`);
    entryIds.push(signal.entry.id);
    body = JSON.stringify(signal);
  }
  const delivery = deliver(senders[kind], body, Date.now() + 120_000).then((status) => {
    if (status === 0) gaveUp[kind] += 1;
  });
  inFlight.add(delivery);
  void delivery.finally(() => inFlight.delete(delivery));
}

/** What has reached its business record so far: orders exported, disputes linked, thread entries stored. */
async function processed(): Promise<Record<Kind, number>> {
  const [orders, linkages, entries] = await Promise.all([
    prisma.order.count({ where: { number: { startsWith: "SK" }, imported: 1 } }),
    prisma.disputeLinkage.count({ where: { case_id: { startsWith: "SOAK-" } } }),
    prisma.ticketEntry.count(),
  ]);
  return { order: orders, webhook: linkages, signal: entries };
}
const total = (counts: Record<Kind, number>) => counts.order + counts.webhook + counts.signal;

/** Sends at `perSecond` for `seconds`, ticking every 100 ms, at most 200 requests in flight. */
async function drive(perSecond: number, seconds: number, onTick?: () => Promise<void>): Promise<void> {
  const started = Date.now();
  let due = 0;
  while (Date.now() - started < seconds * 1000) {
    due += perSecond / 10;
    while (due >= 1 && inFlight.size < 200) {
      send();
      due -= 1;
    }
    if (onTick) await onTick();
    await sleep(100);
  }
}

// Capacity: as fast as the API takes them for a few seconds, then how long the workers take to drain it all.
const calibrationStart = Date.now();
await drive(10_000, CALIBRATION_SECONDS);
while (total(await processed()) < events - total(gaveUp) && Date.now() - calibrationStart < 300_000) await sleep(250);
const capacity = events / ((Date.now() - calibrationStart) / 1000);
const rate = Math.max(1, capacity * SHARE);
console.log(`capacity ${capacity.toFixed(1)} events/s end to end (${events} events sent and processed); soaking at ${rate.toFixed(1)} events/s (${Math.round(SHARE * 100)} %) for ${MINUTES} min, load ${load()}`);

interface Sample {
  at: number;
  events: number;
  apiRss: number;
  apiHeap: number;
  workerRss: number;
  workerHeap: number;
  redis: number;
  dbBytes: number;
  dbOtherBytes: number;
  otherRows: number;
  /** Completed jobs BullMQ keeps (SOAK_JOBS_KEPT_SECONDS, at most SOAK_JOBS_KEPT_MAX per queue). */
  completedJobs: number;
  /** Entries in the queues' event streams, each trimmed by BullMQ at about 10,000: Redis grows until they are full. */
  streamEntries: number;
  load: number;
}

function memoryOf(pid: number | undefined): { rss: number; heapUsed: number } {
  try {
    return JSON.parse(readFileSync(path.join(memoryDir, `${pid}.json`), "utf8")) as { rss: number; heapUsed: number };
  } catch {
    return { rss: Number.NaN, heapUsed: Number.NaN };
  }
}

async function tableSizes(): Promise<{ name: string; bytes: number; rows: number }[]> {
  const tables = await prisma.$queryRawUnsafe<{ name: string }[]>(`SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = '${database}' AND TABLE_TYPE = 'BASE TABLE'`);
  // InnoDB's sizes are estimates refreshed now and then; ANALYZE makes them current (it samples pages, quick).
  await prisma.$queryRawUnsafe(`ANALYZE TABLE ${tables.map((table) => `\`${table.name}\``).join(", ")}`);
  const sizes = await prisma.$queryRawUnsafe<{ name: string; bytes: bigint }[]>(
    `SELECT TABLE_NAME AS name, DATA_LENGTH + INDEX_LENGTH AS bytes FROM information_schema.TABLES WHERE TABLE_SCHEMA = '${database}' AND TABLE_TYPE = 'BASE TABLE'`,
  );
  // One at a time: the soak's own small pool must not starve the checks that run beside it.
  const rows: number[] = [];
  for (const table of sizes) rows.push(Number((await prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT COUNT(*) AS n FROM \`${table.name}\``))[0]!.n));
  return sizes.map((table, i) => ({ name: table.name, bytes: Number(table.bytes), rows: rows[i]! }));
}

async function sample(): Promise<Sample> {
  const apiMemory = memoryOf(api.pid);
  const workerMemory = memoryOf(worker.pid);
  const info = await redis.info("memory");
  const tables = await tableSizes();
  const other = tables.filter((table) => !BUSINESS.has(table.name) && table.name !== "_prisma_migrations");
  let completedJobs = 0;
  let streamEntries = 0;
  for (const queue of QUEUE_NAMES) {
    completedJobs += await redis.zcard(`${env.QUEUE_PREFIX}:${queue}:completed`);
    streamEntries += await redis.xlen(`${env.QUEUE_PREFIX}:${queue}:events`);
  }
  return {
    at: Date.now(),
    events,
    apiRss: apiMemory.rss,
    apiHeap: apiMemory.heapUsed,
    workerRss: workerMemory.rss,
    workerHeap: workerMemory.heapUsed,
    redis: Number(/used_memory:(\d+)/.exec(info)?.[1]),
    dbBytes: tables.reduce((sum, table) => sum + table.bytes, 0),
    dbOtherBytes: other.reduce((sum, table) => sum + table.bytes, 0),
    otherRows: other.reduce((sum, table) => sum + table.rows, 0),
    completedJobs,
    streamEntries,
    load: loadavg()[0]!,
  };
}

const samples: Sample[] = [await sample()];
let nextSample = Date.now() + SAMPLE_MS;
let died = "";
await drive(rate, MINUTES * 60, async () => {
  if (api.exitCode !== null || worker.exitCode !== null) {
    died ||= `${api.exitCode !== null ? `API exited ${api.exitCode}` : ""} ${worker.exitCode !== null ? `worker exited ${worker.exitCode}` : ""}`.trim();
  }
  if (Date.now() < nextSample) return;
  nextSample += SAMPLE_MS;
  // A sample the loaded machine could not take in time is skipped, not the soak.
  const now = await sample().catch((error: unknown) => {
    console.error(`sample skipped: ${(error as Error).message.split("\n")[0]}`);
    return null;
  });
  if (!now) return;
  samples.push(now);
  console.log(
    `${((now.at - samples[0]!.at) / 60_000).toFixed(1)} min: ${now.events} events; API rss ${mb(now.apiRss)} MB heap ${mb(now.apiHeap)} MB; worker rss ${mb(now.workerRss)} MB heap ${mb(now.workerHeap)} MB; redis ${mb(now.redis)} MB (${now.completedJobs} completed jobs kept, ${now.streamEntries} event stream entries); db ${mb(now.dbBytes)} MB (retained tables ${mb(now.dbOtherBytes)} MB, ${now.otherRows} rows); load ${now.load.toFixed(2)}`,
  );
});

// Drain: every event the platform took must reach its business record.
await Promise.all(inFlight);
const settleStart = Date.now();
let done = await processed();
while (total(done) < events && Date.now() - settleStart < SETTLE_SECONDS * 1000) {
  await sleep(1000);
  done = await processed();
}
const lostByKind = { order: sent.order - done.order, webhook: sent.webhook - done.webhook, signal: sent.signal - done.signal };
const lost = Math.max(0, lostByKind.order) + Math.max(0, lostByKind.webhook) + Math.max(0, lostByKind.signal);

// Rows the retention should have removed by now: past their retention plus two runs of the minute schedule, and a margin.
const stale = new Date(Date.now() - (RETENTION_SECONDS + 150) * 1000);
const staleRows = {
  webhook_events: await prisma.webhookEvent.count({ where: { processed_at: { lt: stale } } }),
  ticket_changes: await prisma.ticketChange.count({ where: { created: { lt: stale } } }),
  ai_history: await prisma.aiHistory.count({ where: { event: "analysis", created: { lt: stale } } }),
};
const staleTotal = staleRows.webhook_events + staleRows.ticket_changes + staleRows.ai_history;

/** The median of a figure over the samples in [from, to): one sample is too noisy to compare. */
function medianOf(field: keyof Sample, from: number, to: number): number {
  const values = samples.slice(from, to).map((s) => s[field]).filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return values.length ? values[Math.floor(values.length / 2)]! : Number.NaN;
}
// After the warm-up (a quarter of the run, at least a minute): its first three samples against the last three.
const warmIndex = Math.max(1, samples.findIndex((s) => s.at - samples[0]!.at >= Math.max(60_000, (MINUTES * 60_000) / 4)));
const last = samples.length;
const windowEvents = samples[last - 1]!.events - samples[warmIndex]!.events;
function growth(field: keyof Sample) {
  const start = medianOf(field, warmIndex, warmIndex + 3);
  const end = medianOf(field, Math.max(warmIndex, last - 3), last);
  return {
    start_mb: mb(start),
    end_mb: mb(end),
    growth_pct: Math.round(((end - start) / start) * 1000) / 10,
    per_10k_events_mb: windowEvents > 0 ? mb(((end - start) / windowEvents) * 10_000) : null,
  };
}
const memory = { api_rss: growth("apiRss"), api_heap: growth("apiHeap"), worker_rss: growth("workerRss"), worker_heap: growth("workerHeap"), redis_used_memory: growth("redis") };
const flat = (g: { growth_pct: number }) => g.growth_pct < 5;
const result = {
  minutes: MINUTES,
  capacity_events_per_s: Math.round(capacity * 10) / 10,
  rate_events_per_s: Math.round(rate * 10) / 10,
  events,
  sent,
  processed: done,
  gave_up: gaveUp,
  lost,
  warm_up_minutes: Math.round(((samples[warmIndex]!.at - samples[0]!.at) / 60_000) * 10) / 10,
  events_after_warm_up: windowEvents,
  ...memory,
  db_bytes: growth("dbBytes"),
  db_retained_tables: growth("dbOtherBytes"),
  completed_jobs_kept: { start: medianOf("completedJobs", warmIndex, warmIndex + 3), end: medianOf("completedJobs", Math.max(warmIndex, last - 3), last) },
  event_stream_entries: { start: medianOf("streamEntries", warmIndex, warmIndex + 3), end: medianOf("streamEntries", Math.max(warmIndex, last - 3), last) },
  retained_rows: { start: medianOf("otherRows", warmIndex, warmIndex + 3), end: medianOf("otherRows", Math.max(warmIndex, last - 3), last) },
  stale_rows: staleRows,
  flat: { api_rss: flat(memory.api_rss), worker_rss: flat(memory.worker_rss), redis: flat(memory.redis_used_memory) },
  load_average: { start: samples[0]!.load, end: samples[last - 1]!.load },
  died: died || null,
};

await stopProcess(worker);
await stopProcess(api);
await clearQueuePrefix(env.QUEUE_PREFIX);
await redis.quit();
await prisma.$disconnect();
await Promise.all([gateway.stop(), fraud.stop(), erp.stop(), gemini.stop()]);
rmSync(memoryDir, { recursive: true, force: true });

const failures = [lost > 0 && `${lost} events lost (${JSON.stringify(lostByKind)})`, died && died, staleTotal > 0 && `${staleTotal} rows past their retention left (${JSON.stringify(staleRows)})`].filter(Boolean);
for (const failure of failures) console.error(`soak failed: ${failure}`);
console.log(`SOAK_RESULT ${JSON.stringify(result)}`);
process.exit(failures.length ? 1 : 0);
