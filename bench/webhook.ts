// `pnpm bench:webhook`: the acquirer webhook receiver at concurrency 50, beside two
// baselines measured in the same run, in alternating rounds (issues 4, 21, 34):
// - the plain baseline: a bare Express in plain JavaScript on node alone that reads
//   the raw body and does one queue.add (bench/lib/plain-queue.mjs), the target's;
// - Express + queue.add as this bench had it before issue 34: the same, in TypeScript
//   under tsx and on the platform's Redis factory (bench/lib/bare-queue.ts), for the record.
// Target (issue 34): at least 80 % of the plain baseline's throughput, p99 at most 1.5x its.
//
// `pnpm bench:webhook --with-worker`: the acknowledgement's latency while a worker
// drains the same disputes on this machine (1,000 distinct disputes at concurrency
// 20, linked against the fake gateway and fraud service); target p99 < 200 ms.
import { loadavg } from "node:os";
import { createPrisma } from "@mw/platform";
import { FakeFraud } from "../test/fakes/fraud.ts";
import { FakeGateway } from "../test/fakes/gateway.ts";
import { clearQueuePrefix, freshBenchEnvironment } from "./lib/database.ts";
import { disputeWebhookBody, seedDisputeWorld } from "./lib/dispute-fixtures.ts";
import { compareLoads, printComparison, runLoad } from "./lib/load.ts";
import { sampleRss, startProcess, startWorker, stopProcess } from "./lib/processes.ts";
import { againstBaseline, reportResult } from "./lib/result.ts";
import { median } from "./lib/steady-rate.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RECEIVER = "/middleware/v1/webhooks/acquirer";
/** e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the API. */
const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
const load = () => loadavg().map((n) => n.toFixed(1)).join(", ");

let seq = 0;
function dispute(): string {
  seq += 1;
  return JSON.stringify({
    event_type: "dispute.created",
    timestamp: new Date().toISOString(),
    api_response: JSON.stringify({ case_id: `BENCH-${process.pid}-${seq}`, case_number: `N${seq}` }),
    request_payload: JSON.stringify({ mid: "0012345", auth_code: "AB12CD", transaction_date: "2026-11-01", amount: "49.90", card_number: "411111******1111" }),
    remote_addr: "203.0.113.9",
    user_agent: "Acquirer/2.0",
    account_id: "12345",
  });
}

async function throughput(): Promise<void> {
  const { env } = await freshBenchEnvironment("webhook", { PORT: "3911" });
  const plainServer = await startProcess("bench/lib/plain-queue.mjs", { ...env, PORT: "3912" }, "http://127.0.0.1:3912/");
  const platformServer = await startProcess("bench/lib/bare-queue.ts", { ...env, PORT: "3913" }, "http://127.0.0.1:3913/");
  const api = await startProcess("packages/api/src/main.ts", env, "http://127.0.0.1:3911/healthz", nodeArgs);
  try {
    const receiver = `http://127.0.0.1:3911${RECEIVER}`;
    await runLoad({ name: "warm-up", url: receiver, connections: CONNECTIONS, durationSeconds: 3, body: dispute });
    const loadBefore = load();
    const rss = sampleRss(api);
    const [plain, platform, webhook] = await compareLoads(
      [
        { name: "plain Express + queue.add", url: "http://127.0.0.1:3912/webhook", connections: CONNECTIONS, body: dispute },
        { name: "Express + queue.add (tsx, platform Redis)", url: "http://127.0.0.1:3913/webhook", connections: CONNECTIONS, body: dispute },
        { name: "POST /webhooks/acquirer", url: receiver, connections: CONNECTIONS, body: dispute },
      ],
      ROUNDS,
      SECONDS,
    );
    const apiRss = rss.stop();
    const target = ">= 80 % of the plain baseline's req/s, p99 <= 1.5x its";
    printComparison(`acquirer webhook: concurrency ${CONNECTIONS}, ${ROUNDS} alternating rounds of ${SECONDS} s (load average before ${loadBefore}, after ${load()})`, [plain!, platform!, webhook!]);
    const share = (baseline: { rps: number }) => Math.round((100 * webhook!.rps) / baseline.rps);
    console.log(`receiver throughput = ${share(plain!)} % of the plain baseline, ${share(platform!)} % of the tsx one (medians); API RSS under load: ${apiRss} MB (peak)`);
    const met = webhook!.rps >= 0.8 * plain!.rps && webhook!.p99 <= 1.5 * plain!.p99;
    reportResult(againstBaseline(`acquirer webhook, concurrency ${CONNECTIONS}, against the plain baseline`, plain!, webhook!, "req/s", { text: target, met }, apiRss));
    reportResult(againstBaseline(`acquirer webhook, concurrency ${CONNECTIONS}, against the tsx baseline`, platform!, webhook!, "req/s", null, apiRss));
  } finally {
    await stopProcess(api);
    await stopProcess(platformServer);
    await stopProcess(plainServer);
    await clearQueuePrefix(env.QUEUE_PREFIX);
  }
}

const DISPUTES = Number(process.env.BENCH_DISPUTES ?? 1000);
const WORKER_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Each round sends DISPUTES distinct disputes at concurrency 20 while the worker drains them, then waits until all are processed. */
async function withWorker(): Promise<void> {
  const { env, databaseUrl, key } = await freshBenchEnvironment("webhook_worker", { PORT: "3911", WORKER_QUEUES: "disputes" });
  const prisma = createPrisma(databaseUrl, { connectionLimit: 2 });
  const gateway = await new FakeGateway().start();
  const world = { ...(await seedDisputeWorld(prisma, key, gateway, "bench-fraud-key", { sales: DISPUTES, perDay: 20 })), perDay: 20 };
  const fraud = await new FakeFraud(new Map([[world.fraudKey, "bench-team"]])).start();
  const api = await startProcess("packages/api/src/main.ts", env, "http://127.0.0.1:3911/healthz", nodeArgs);
  const worker = await startWorker({ ...process.env, ...env, GATEWAY_QUERY_URL: gateway.url, FRAUD_API_URL: fraud.url });
  const rows = [];
  try {
    for (let round = 0; round < WORKER_ROUNDS; round += 1) {
      let n = 0;
      const started = Date.now();
      const acks = await runLoad({
        name: `round ${round + 1}`,
        url: `http://127.0.0.1:3911${RECEIVER}`,
        connections: 20,
        amount: DISPUTES,
        body: () => {
          n += 1;
          return disputeWebhookBody(world, `W${process.pid}-${round}-${n}`, n);
        },
      });
      const sent = Date.now() - started;
      const where = { event_id: { startsWith: `acquirer_case_W${process.pid}-${round}-` } };
      for (;;) {
        if ((await prisma.webhookEvent.count({ where: { ...where, processed_at: { not: null } } })) >= DISPUTES) break;
        if (worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const linked = await prisma.webhookEvent.count({ where: { ...where, outcome: "linked" } });
      rows.push({ round: round + 1, acknowledged: acks.requests - acks.non2xx - acks.errors, "non-2xx": acks.non2xx, errors: acks.errors, "ack p50 ms": acks.p50, "ack p99 ms": acks.p99, "sent in s": sent / 1000, "drained in s": (Date.now() - started) / 1000, linked, load: load() });
    }
  } finally {
    await stopProcess(worker);
    await stopProcess(api);
    await Promise.all([gateway.stop(), fraud.stop()]);
    await prisma.$disconnect();
    await clearQueuePrefix(env.QUEUE_PREFIX);
  }
  console.log(`\nacquirer webhook with a worker draining the same disputes: ${DISPUTES} distinct disputes per round at concurrency 20, NODE_ENV=${env.NODE_ENV}`);
  console.table(rows);
  const p99 = median(rows.map((row) => row["ack p99 ms"]));
  const failed = rows.reduce((sum, row) => sum + row["non-2xx"] + row.errors, 0);
  console.log(`acknowledgement p99: ${p99} ms (median of ${rows.length} rounds)`);
  reportResult({
    path: `acquirer webhook acknowledgement, a worker draining the same disputes, concurrency 20`,
    baseline: null,
    figure: `p99 ${p99} ms (median of ${rows.length} rounds: ${rows.map((row) => row["ack p99 ms"]).join(", ")})${failed ? `, ${failed} failed` : ""}`,
    target: "p99 < 200 ms",
    met: p99 < 200 && failed === 0,
    p99Ms: p99,
    rssApiMb: null,
    rssWorkerMb: null,
  });
}

if (process.argv.includes("--with-worker")) await withWorker();
else await throughput();
