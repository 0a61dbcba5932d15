// `pnpm bench:ai`: the built-in e-mail reply parser's accuracy and speed on
// the corpus (targets: >= 90 % exact after whitespace normalisation, >= 2,000
// replies/s in one process), the built-in urgency engine's agreement with the
// labelled set (test/fixtures/urgency-labelled; held-out and training parts;
// target >= 80 % exact on the held-out part), and POST /ai/ticket-urgency answered from the cache at
// concurrency 20 (target p99 < 10 ms).
import { parseEmailReply } from "@mw/domains/ai";
import { createPrisma } from "@mw/platform";
import { OptionStore } from "@mw/domains/options";
import { EMAIL_THREADS } from "../test/fixtures/email-threads.ts";
import { URGENCY_TICKETS } from "../test/fixtures/urgency-tickets.ts";
import { agreement } from "../test/fixtures/urgency-labelled/agreement.ts";
import { HELD_OUT_TICKETS, LABELLED_TICKETS, TRAIN_TICKETS } from "../test/fixtures/urgency-labelled/index.ts";
import { clearQueuePrefix, freshBenchEnvironment } from "./lib/database.ts";
import { runLoad } from "./lib/load.ts";
import { cpuMillis, sampleRss, startProcess, stopProcess } from "./lib/processes.ts";
import { reportResult } from "./lib/result.ts";
import { loadavg } from "node:os";

const normalise = (text: string) => text.replace(/[ \t]+/g, " ").replace(/\s*\n\s*/g, "\n").trim();

const exact = EMAIL_THREADS.filter((thread) => normalise(parseEmailReply(thread.thread)) === normalise(thread.reply)).length;
const ROUNDS = 500;
const started = performance.now();
for (let round = 0; round < ROUNDS; round += 1) for (const thread of EMAIL_THREADS) parseEmailReply(thread.thread);
const perSecond = Math.round((ROUNDS * EMAIL_THREADS.length) / ((performance.now() - started) / 1000));
console.log(`reply parser: ${exact}/${EMAIL_THREADS.length} exact (${Math.round((100 * exact) / EMAIL_THREADS.length)} %), ${perSecond} replies/s in one process`);

const figures = (result: ReturnType<typeof agreement>) => `${result.exact} % exact, ${result.withinOne} % within one level (${result.tickets} tickets)`;
const heldOut = agreement(HELD_OUT_TICKETS);
console.log(`urgency engine, held-out part: ${figures(heldOut)} (target >= 80 % exact)`);
console.log(`urgency engine, training part: ${figures(agreement(TRAIN_TICKETS))}; whole set: ${figures(agreement(LABELLED_TICKETS))}`);
console.log(`  the earlier 30 tickets (test/fixtures/urgency-tickets.ts, labelled before this set): ${figures(agreement(URGENCY_TICKETS))}`);

const KEY = "bench-ai-shared-key-5d0e91c4a7b2f836";
const { env, databaseUrl, key } = await freshBenchEnvironment("ai", { PORT: "3913" });
await new OptionStore(createPrisma(databaseUrl), key).set({ ai_security_key: KEY, ai_rate_limit: 100_000, ai_rate_window: 1 });
const api = await startProcess("packages/api/src/main.ts", env, "http://127.0.0.1:3913/healthz", process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []);
try {
  const url = "http://127.0.0.1:3913/ai/ticket-urgency";
  const body = JSON.stringify({ subject: "Checkout down", body: "No customer can pay since 9am.", client_name: "ACME", is_vip: false });
  await fetch(url, { method: "POST", headers: { "content-type": "application/json", "ai-security-key": KEY }, body });
  await runLoad({ name: "warm-up", url, connections: 20, durationSeconds: 2, body: () => body, headers: { "ai-security-key": KEY } });
  const rss = sampleRss(api);
  const cpuBefore = cpuMillis(api);
  const cached = await runLoad({ name: "POST /ai/ticket-urgency (cache hits)", url, connections: 20, durationSeconds: 5, body: () => body, headers: { "ai-security-key": KEY } });
  const cpuAfter = cpuMillis(api);
  const apiRss = rss.stop();
  const health = await runLoad({ name: "GET /healthz", url: "http://127.0.0.1:3913/healthz", method: "GET", connections: 20, durationSeconds: 5 });
  const perRequest = cpuBefore === undefined || cpuAfter === undefined ? "" : `, ${Math.round(((cpuAfter - cpuBefore) * 1000) / cached.requests)} µs of API CPU per request`;
  console.log(`urgency from the cache, concurrency 20: ${Math.round(cached.rps)} req/s, p50 ${cached.p50} ms, p99 ${cached.p99} ms (target p99 < 10 ms)${perRequest}, API RSS ${apiRss} MB (peak); load average ${loadavg()[0]!.toFixed(1)}`);
  console.log(`for scale, GET /healthz on the same process: ${Math.round(health.rps)} req/s, p50 ${health.p50} ms, p99 ${health.p99} ms`);
  const exactShare = Math.round((100 * exact) / EMAIL_THREADS.length);
  reportResult({ path: "built-in urgency engine, held-out tickets", baseline: "rubric concepts with trained points: 49.9 % exact", figure: `${heldOut.exact} % exact, ${heldOut.withinOne} % within one level`, target: ">= 80 % exact", met: heldOut.exact >= 80, p99Ms: null, rssApiMb: null, rssWorkerMb: null });
  reportResult({ path: "e-mail reply parser, one process", baseline: null, figure: `${perSecond} replies/s, ${exactShare} % exact`, target: ">= 2000 replies/s, >= 90 % exact", met: perSecond >= 2000 && exactShare >= 90, p99Ms: null, rssApiMb: null, rssWorkerMb: null });
  reportResult({
    path: "ticket urgency from the cache, concurrency 20",
    baseline: `GET /healthz, same process: ${Math.round(health.rps)} req/s, p99 ${health.p99} ms`,
    figure: `${Math.round(cached.rps)} req/s`,
    target: "p99 < 10 ms",
    met: cached.p99 < 10 && cached.non2xx === 0 && cached.errors === 0,
    p99Ms: cached.p99,
    rssApiMb: apiRss ?? null,
    rssWorkerMb: null,
  });
} finally {
  await stopProcess(api);
  await clearQueuePrefix(env.QUEUE_PREFIX);
}
process.exit(0);
