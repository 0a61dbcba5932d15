// `pnpm bench:data [--scale F] [--reuse]`: a year of a busy shop (10,000,000 orders at scale 1) seeded
// into a database of its own (mw_bench_data), then every list, search, count and page people and ERPs
// read, timed against the API in production mode (issue 44). `--reuse` keeps a database already seeded
// at the same scale (seeding 10M rows takes long). Prints a table and `BENCH_RESULT {json}`.
import { loadavg } from "node:os";
import { createPrisma } from "@mw/platform";
import { createUser } from "@mw/domains/identity";
import { seedBenchData } from "../scripts/support/seed.ts";
import { clearQueuePrefix, freshBenchEnvironment } from "./lib/database.ts";
import { sampleRss, startProcess, stopProcess } from "./lib/processes.ts";

const argv = process.argv.slice(2);
const scaleAt = argv.indexOf("--scale");
const SCALE = scaleAt >= 0 ? Number(argv[scaleAt + 1]) : 1;
if (!(SCALE > 0 && SCALE <= 1)) throw new Error("--scale takes a number in (0, 1]");
const REUSE = argv.includes("--reuse");
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const TARGET_MS = 100;
const PORT = "3911";

const databaseUrl = process.env.BENCH_DATABASE_URL ?? "mysql://mw:mw@127.0.0.1:3306/mw_bench_data";
const orders = Math.round(10_000_000 * SCALE);
let reused = false;
if (REUSE) {
  const probe = createPrisma(databaseUrl, { connectionLimit: 1 });
  // Seeded at this scale: order `orders` is B<orders> and the seeding went no further (orders a bench took in since do not count).
  const numbers = await probe.order.findMany({ where: { id: { in: [orders, orders + 1] } }, select: { id: true, number: true } }).catch(() => []);
  await probe.$disconnect();
  reused = numbers.some((row) => row.number === `B${orders}`) && !numbers.some((row) => row.number === `B${orders + 1}`);
}
const { env } = reused
  ? {
      env: {
        NODE_ENV: "production",
        REQUIRE_HTTPS: "false",
        DATABASE_URL: databaseUrl,
        QUEUE_PREFIX: new URL(databaseUrl).pathname.slice(1),
        ENCRYPTION_KEY: "0".repeat(64),
        LOG_LEVEL: "info",
        LOG_STDOUT: "false",
        LOG_DIR: "/tmp/mw-bench-logs",
      },
    }
  : await freshBenchEnvironment("data", { PORT });
// A batch of 50,000 orders, each through the search triggers, takes longer than the platform's 15 s query bound.
const prisma = createPrisma(databaseUrl, { connectionLimit: 2, queryTimeoutMs: 600_000 });
if (!reused) {
  const started = Date.now();
  let last = 0;
  const counts = await seedBenchData(prisma, SCALE, (table, done, total) => {
    if (Date.now() - last > 10_000 || done === total) {
      last = Date.now();
      console.log(`seeding ${table}: ${done.toLocaleString("en")} / ${total.toLocaleString("en")} (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  });
  console.log(`seeded in ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(counts)}`);
  await prisma.$executeRawUnsafe("ANALYZE TABLE orders, order_search_grams, dispute_linkages, webhook_events, ai_snapshots");
}
const user = await createUser({ prisma }, { login: `bench${Date.now()}`, capabilities: ["manage_middleware", "manage_options"] });
await prisma.$disconnect();
const auth = `Basic ${Buffer.from(`${user.login}:${user.application_password}`).toString("base64")}`;

const base = `http://127.0.0.1:${PORT}/middleware/v1`;
const api = await startProcess("packages/api/src/main.ts", { ...env, PORT }, `http://127.0.0.1:${PORT}/healthz`);

interface Row {
  read: string;
  p50: number;
  p99: number;
  rows: number | null;
  met: boolean | null;
}
const rows: Row[] = [];

async function get(path: string): Promise<{ ms: number; body: Record<string, unknown> }> {
  const started = performance.now();
  // Spec 2's routes (the ticket system's) sit at REST_ROOT, the site root here, not under the API's root.
  const res = await fetch(path.startsWith("/tickets/") ? `http://127.0.0.1:${PORT}${path}` : `${base}${path}`, { headers: { authorization: auth }, signal: AbortSignal.timeout(120_000) });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return { ms, body: res.headers.get("content-type")?.includes("json") ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

/** Times `paths` (one per sample, cycled) after two warm-up calls; a read with a target is a list page or search. */
async function time(read: string, paths: string | string[], target = true): Promise<Record<string, unknown>> {
  const list = Array.isArray(paths) ? paths : [paths];
  let body: Record<string, unknown> = {};
  for (let i = 0; i < 2; i += 1) body = (await get(list[i % list.length]!)).body;
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) samples.push((await get(list[i % list.length]!)).ms);
  samples.sort((a, b) => a - b);
  const p99 = percentile(samples, 99);
  const total = typeof body.total === "number" ? body.total : null;
  rows.push({ read, p50: percentile(samples, 50), p99, rows: total, met: target ? p99 <= TARGET_MS : null });
  return body;
}

const half = Math.round(orders / 2);
const lastPage = Math.ceil(orders / 20);
const loadBefore = loadavg()[0]!;
const rss = sampleRss(api);
try {
  await time("GET /orders page 1", "/orders");
  await time("GET /orders page 2", "/orders?page=2");
  await time("GET /orders page 1,000", "/orders?page=1000");
  const deep = await time(`GET /orders page ${Math.round(lastPage / 2).toLocaleString("en")} (middle, offset)`, `/orders?page=${Math.round(lastPage / 2)}`, false);
  await time(`GET /orders last page (${lastPage.toLocaleString("en")}, offset)`, `/orders?page=${lastPage}`, false);
  // Keyset: 30 consecutive pages from the middle of the table, each from the previous page's cursor.
  let cursor = deep.next_cursor as string;
  const cursors: string[] = [];
  for (let i = 0; i < SAMPLES + 2; i += 1) {
    cursors.push(`/orders?cursor=${encodeURIComponent(cursor)}`);
    cursor = (await get(cursors.at(-1)!)).body.next_cursor as string;
  }
  await time("GET /orders?cursor= (middle of the table)", cursors);
  await time("GET /orders?site_id=", ["/orders?site_id=7", "/orders?site_id=150"]);
  await time("GET /orders?site_id= page 1,000", "/orders?site_id=7&page=1000", false);
  await time("GET /orders?imported=0", "/orders?imported=0");
  await time("GET /orders?imported=1", "/orders?imported=1");
  await time("GET /orders?payment_method=pay_3", "/orders?payment_method=pay_3");
  await time("GET /orders?ship_status=1", "/orders?ship_status=1");
  await time("GET /orders?ship_status=0", "/orders?ship_status=0");
  for (const state of ["pending", "exported", "verified", "failed"]) await time(`GET /orders?state=${state}`, `/orders?state=${state}`);
  await time("GET /orders?failed_since=", "/orders?failed_since=2025-01-01T00:00:00Z");
  await time("GET /orders?search= whole order number", [`/orders?search=B${half}`, `/orders?search=B${half + 17}`]);
  await time("GET /orders?search= whole ERP number", [`/orders?search=SO-${half}`, `/orders?search=SO-${half + 17}`]);
  await time("GET /orders?search= whole transaction id", [`/orders?search=T${half}`, `/orders?search=T${half + 17}`]);
  await time("GET /orders?search= 5-digit substring", ["/orders?search=12345", "/orders?search=54321"]);
  await time("GET /orders?search= 3-character substring", ["/orders?search=777", "/orders?search=B12", "/orders?search=O-9"]);
  await time("GET /orders?search=&site_id=", "/orders?search=4242&site_id=7");
  await time("GET /orders/{id}", `/orders/${half}`);
  await time("GET /stats", "/stats");
  await time("GET /disputes/linkages page 1", "/disputes/linkages");
  await time("GET /disputes/linkages page 1,000", "/disputes/linkages?page=1000", false);
  await time("GET /disputes page 1", "/disputes");
  await time("GET /tickets/v1/snapshots page 1", "/tickets/v1/snapshots");
  await time("GET /tickets/v1/snapshots?level=CRITICAL", "/tickets/v1/snapshots?level=CRITICAL");
} finally {
  const apiRss = rss.stop();
  await stopProcess(api);
  await clearQueuePrefix(env.QUEUE_PREFIX);
  const width = Math.max(...rows.map((row) => row.read.length));
  console.log(`\nbench:data at scale ${SCALE} (${orders.toLocaleString("en")} orders), ${SAMPLES} calls each, one at a time; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after; API RSS peak ${apiRss} MB`);
  console.log(`${"read".padEnd(width)}  p50 ms  p99 ms  total      target p99 <= ${TARGET_MS} ms`);
  for (const row of rows) {
    console.log(`${row.read.padEnd(width)}  ${String(row.p50).padStart(6)}  ${String(row.p99).padStart(6)}  ${String(row.rows ?? "").padEnd(9)}  ${row.met === null ? "(for the record)" : row.met ? "met" : "NOT met"}`);
  }
  console.log(`BENCH_RESULT ${JSON.stringify({ scale: SCALE, orders, load_average: loadBefore, api_rss_mb: apiRss ?? null, reads: rows })}`);
}
