// `pnpm bench:webhook`: the acquirer webhook receiver at concurrency 50, beside an Express
// endpoint that only does queue.add, measured in the same run (issue 4).
// Targets (issue 21): at least 80 % of the baseline's throughput, p99 at most 1.5x the baseline's.
import { clearQueuePrefix, freshBenchEnvironment } from "./lib/database.ts";
import { compareLoads, printComparison, runLoad } from "./lib/load.ts";
import { sampleRss, startProcess, stopProcess } from "./lib/processes.ts";
import { againstBaseline, reportResult } from "./lib/result.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const { env } = await freshBenchEnvironment("webhook", { PORT: "3911" });
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

const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
const baselineServer = await startProcess("bench/lib/bare-queue.ts", { ...env, PORT: "3912" }, "http://127.0.0.1:3912/");
const api = await startProcess("packages/api/src/main.ts", env, "http://127.0.0.1:3911/healthz", nodeArgs);
try {
  const receiver = "http://127.0.0.1:3911/middleware/v1/webhooks/acquirer";
  await runLoad({ name: "warm-up", url: receiver, connections: CONNECTIONS, durationSeconds: 3, body: dispute });
  const rss = sampleRss(api);
  const [baseline, webhook] = await compareLoads(
    [
      { name: "Express + queue.add only", url: "http://127.0.0.1:3912/webhook", connections: CONNECTIONS, body: dispute },
      { name: "POST /webhooks/acquirer", url: receiver, connections: CONNECTIONS, body: dispute },
    ],
    ROUNDS,
    SECONDS,
  );
  const apiRss = rss.stop();
  const target = ">= 80 % of the baseline's req/s, p99 <= 1.5x the baseline's";
  printComparison(`acquirer webhook: concurrency ${CONNECTIONS}, ${ROUNDS} alternating rounds of ${SECONDS} s, targets ${target}`, [baseline!, webhook!]);
  console.log(`receiver throughput = ${Math.round((100 * webhook!.rps) / baseline!.rps)} % of the baseline (medians); API RSS under load: ${apiRss} MB (peak)`);
  const met = webhook!.rps >= 0.8 * baseline!.rps && webhook!.p99 <= 1.5 * baseline!.p99;
  reportResult(againstBaseline(`acquirer webhook, concurrency ${CONNECTIONS}`, baseline!, webhook!, "req/s", { text: target, met }, apiRss));
} finally {
  await stopProcess(api);
  await stopProcess(baselineServer);
  await clearQueuePrefix(env.QUEUE_PREFIX);
}
