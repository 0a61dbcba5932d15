// `pnpm bench:data [--scale F] [--reuse]`: a year of a busy shop (10,000,000 orders at scale 1) seeded
// into a database of its own (mw_bench_data), then every list, search, count and page people and ERPs
// read, timed against the API in production mode (issue 44): the REST lists and searches, the console's
// operations page and its job search by order number, dispute case and ticket number, and every report
// and CSV export once each, a year's report run by a worker, its download and the admin AJAX exports
// served by the API, with rows per second and the building process's peak memory above its idle RSS
// (target: flat, at most 100 MB above). `--reuse` keeps a database already seeded at the same scale
// (seeding 10M rows takes long). Prints a table and `BENCH_RESULT {json}`.
import { loadavg } from "node:os";
import { createPrisma } from "@mw/platform";
import { createUser } from "@mw/domains/identity";
import { seedBenchData } from "../scripts/support/seed.ts";
import { clearQueuePrefix, freshBenchEnvironment } from "./lib/database.ts";
import { measureFile, readCsv, runReport, type FileTiming } from "./lib/file-exports.ts";
import { sampleRss, startProcess, startWorker, stopProcess } from "./lib/processes.ts";

const argv = process.argv.slice(2);
const scaleAt = argv.indexOf("--scale");
const SCALE = scaleAt >= 0 ? Number(argv[scaleAt + 1]) : 1;
if (!(SCALE > 0 && SCALE <= 1)) throw new Error("--scale takes a number in (0, 1]");
const REUSE = argv.includes("--reuse");
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const TARGET_MS = 100;
/** Reports and exports: what building one may add to its process's resident memory. */
const TARGET_MB = 100;
// BENCH_PORT: another bench:data (someone else's database) may hold the default.
const PORT = process.env.BENCH_PORT ?? "3911";

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
const { env: baseEnv } = reused
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
// Report files of this database's own, out of the work tree.
const env = { ...baseEnv, STORAGE_DIR: `/tmp/mw-bench-storage/${baseEnv.QUEUE_PREFIX}` };
// Seeding's statements run far past the platform's 15 s query bound: at ten million orders the reindex's
// gram recount (one GROUP BY over 160 million rows) took about 8 minutes here.
const prisma = createPrisma(databaseUrl, { connectionLimit: 2, queryTimeoutMs: 3_600_000 });
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
  await prisma.$executeRawUnsafe("ANALYZE TABLE orders, order_lines, order_search_grams, dispute_linkages, webhook_events, ai_snapshots, sync_runs, managed_sites");
}
const CONSOLE_PASSWORD = "bench console password";
const user = await createUser({ prisma }, { login: `bench${Date.now()}`, capabilities: ["manage_middleware", "manage_options"], password: CONSOLE_PASSWORD });
// What the database had to answer from memory: the reads below are only as fast as the indexes fit (docs/deployment.md, "Database memory").
const [pool] = await prisma.$queryRawUnsafe<{ mb: number | string }[]>("SELECT @@innodb_buffer_pool_size / 1048576 AS mb");
const bufferPoolMb = Math.round(Number(pool!.mb));
await prisma.$disconnect();
const auth = `Basic ${Buffer.from(`${user.login}:${user.application_password}`).toString("base64")}`;

const site = `http://127.0.0.1:${PORT}`;
const base = `${site}/middleware/v1`;
const api = await startProcess("packages/api/src/main.ts", { ...env, PORT }, `${site}/healthz`);

let session = "";

/** The console is for browsers: a session cookie from its own sign-in form, posted from its own origin. */
async function signInToConsole(): Promise<void> {
  const signedIn = await fetch(`${site}/console/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: site },
    body: new URLSearchParams({ login: user.login, password: CONSOLE_PASSWORD }),
    redirect: "manual",
  });
  session = signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith("mw_session="))?.split(";")[0] ?? "";
  if (!session) throw new Error(`the console sign-in answered ${signedIn.status} without a session`);
}

interface Row {
  read: string;
  p50: number;
  p99: number;
  rows: number | null;
  met: boolean | null;
  /** Reports and exports only: rows per second, and the peak memory above idle of the process that built the file (MB). */
  rows_per_s?: number;
  peak_mb_above_idle?: number | null;
  process?: "api" | "worker";
}
const rows: Row[] = [];

async function get(path: string): Promise<{ ms: number; body: Record<string, unknown> }> {
  const started = performance.now();
  // Spec 2's routes (the ticket system's) sit at REST_ROOT, the site root here, not under the API's root; so does the console, signed in with its cookie.
  const res = path.startsWith("/console/")
    ? await fetch(`${site}${path}`, { headers: { cookie: session }, redirect: "manual", signal: AbortSignal.timeout(120_000) })
    : await fetch(path.startsWith("/tickets/") ? `${site}${path}` : `${base}${path}`, { headers: { authorization: auth }, signal: AbortSignal.timeout(120_000) });
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

/** The API's own call (application password), for the reports and exports. */
function call(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${base}${path}`, { ...init, headers: { ...init.headers, authorization: auth }, signal: AbortSignal.timeout(3_600_000) });
}

/** A report or export run once: its time is both p50 and p99; the target is memory, not time. */
function fileRow(read: string, processName: "api" | "worker", timing: FileTiming): void {
  rows.push({
    read,
    p50: timing.ms,
    p99: timing.ms,
    rows: timing.rows,
    met: timing.peakMbAboveIdle === null ? null : timing.peakMbAboveIdle <= TARGET_MB,
    rows_per_s: timing.rowsPerSecond,
    peak_mb_above_idle: timing.peakMbAboveIdle,
    process: processName,
  });
}

/** The seeded year, as whole UTC days (the seed's first order is on 2025-11-29). */
const YEAR = { from: "2025-11-29", to: "2026-11-28" };
const REPORTS: Record<string, string>[] = [
  { type: "order-intake-daily", ...YEAR },
  { type: "dispute-outcomes", ...YEAR },
  { type: "inventory-sync-summary", ...YEAR },
  { type: "dashboard-summary", date: new Date().toISOString().slice(0, 10) },
];

/** Every report (built by a worker of the reports queue alone) and its download, then the admin AJAX exports; run before the reads, so the API is near its idle size. */
async function timeFiles(): Promise<void> {
  const worker = await startWorker({ ...process.env, ...env, WORKER_QUEUES: "reports" });
  const reports: { type: string; id: number }[] = [];
  try {
    // One day's report first: the worker loads the code a report runs on its first job, which is no part of any report's memory.
    await runReport(call, { type: "order-intake-daily", date: YEAR.from }, 600_000);
    for (const request of REPORTS) {
      let id = 0;
      const timing = await measureFile(worker, async () => {
        const done = await runReport(call, request, 3_600_000);
        id = done.id;
        return { rows: done.rows, bytes: null };
      });
      reports.push({ type: request.type!, id });
      fileRow(`report ${request.type}${request.date ? "" : " (a year)"}, built by the worker`, "worker", timing);
    }
  } finally {
    await stopProcess(worker);
  }
  for (const report of reports) {
    fileRow(`GET /reports/{id}/download (${report.type})`, "api", await measureFile(api, async () => readCsv(await call(`/reports/${report.id}/download`))));
  }
  for (const action of ["export_sites", "export_plugins"]) {
    const form = new URLSearchParams({ action, status: "all", download: "1" });
    const timing = await measureFile(api, async () => readCsv(await fetch(`${site}/admin-ajax`, { method: "POST", headers: { authorization: auth }, body: form, signal: AbortSignal.timeout(3_600_000) })));
    fileRow(`admin AJAX ${action} (all, download=1)`, "api", timing);
  }
}

const half = Math.round(orders / 2);
const lastPage = Math.ceil(orders / 20);
const loadBefore = loadavg()[0]!;
const rss = sampleRss(api);
try {
  await signInToConsole();
  await timeFiles();
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
  await time("GET /console/operations", "/console/operations");
  await time("GET /console/operations job search: order number", [`/console/operations?kind=order&key=B${half}`, `/console/operations?kind=order&key=B${half + 17}`]);
  await time("GET /console/operations job search: dispute case", [`/console/operations?kind=case&key=C${Math.round(half / 5)}`, `/console/operations?kind=case&key=C${Math.round(half / 5) + 17}`]);
  await time("GET /console/operations job search: ticket number", [`/console/operations?kind=ticket&key=T-${Math.round(half / 10)}`, `/console/operations?kind=ticket&key=T-${Math.round(half / 10) + 17}`]);
} finally {
  const apiRss = rss.stop();
  await stopProcess(api);
  await clearQueuePrefix(env.QUEUE_PREFIX);
  const width = Math.max(...rows.map((row) => row.read.length));
  console.log(`\nbench:data at scale ${SCALE} (${orders.toLocaleString("en")} orders), ${SAMPLES} calls each, one at a time; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after; API RSS peak ${apiRss} MB; MariaDB buffer pool ${bufferPoolMb} MB`);
  console.log(`${"read".padEnd(width)}  p50 ms  p99 ms  total      target p99 <= ${TARGET_MS} ms (reports and exports: peak <= ${TARGET_MB} MB above idle)`);
  for (const row of rows) {
    const verdict = row.met === null ? "(for the record)" : row.met ? "met" : "NOT met";
    // A report or export: its rate and memory before the verdict, which is on memory (at most TARGET_MB above idle).
    const file = row.rows_per_s === undefined ? "" : `${row.rows_per_s.toLocaleString("en")} rows/s, ${row.process} +${row.peak_mb_above_idle ?? "?"} MB (<= ${TARGET_MB}): `;
    console.log(`${row.read.padEnd(width)}  ${String(row.p50).padStart(6)}  ${String(row.p99).padStart(6)}  ${String(row.rows ?? "").padEnd(9)}  ${file}${verdict}`);
  }
  console.log(`BENCH_RESULT ${JSON.stringify({ scale: SCALE, orders, load_average: loadBefore, api_rss_mb: apiRss ?? null, buffer_pool_mb: bufferPoolMb, reads: rows })}`);
}
