// `pnpm bench:urgency`: ticket-system signals accepted per second at
// concurrency 20 (each a new thread entry that queues its ticket's analysis),
// then urgency analyses per second by one worker process against the fake
// Gemini with the limiter lifted (urgency_max_per_run 10,000, no gate).
// Needs MariaDB and Redis; the fake runs in this process.
import { setTimeout as sleep } from "node:timers/promises";
import { createPrisma } from "@mw/platform";
import { OptionStore } from "@mw/domains/options";
import { FakeGemini } from "../test/fakes/gemini.ts";
import { analysisAnswer, entrySignal } from "../test/support/tickets.ts";
import { clearQueuePrefix, freshBenchEnvironment } from "./lib/database.ts";
import { runLoad } from "./lib/load.ts";
import { sampleRss, startProcess, stopProcess } from "./lib/processes.ts";
import { reportResult } from "./lib/result.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TICKETS = Number(process.env.BENCH_TICKETS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const KEY = "bench-urgency-shared-key-3f8a6c1e90d2";
const PROVIDER_KEY = "AIzaBENCH-urgency";

const gemini = await new FakeGemini(PROVIDER_KEY).start();
gemini.respond = () => analysisAnswer(40);
const { env, databaseUrl, key } = await freshBenchEnvironment("urgency", { PORT: "3914", AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY });
const prisma = createPrisma(databaseUrl);
await new OptionStore(prisma, key).set({ ai_security_key: KEY, urgency_gate_seconds: 0, urgency_max_per_run: 10_000 });
const api = await startProcess("packages/api/src/main.ts", env, "http://127.0.0.1:3914/healthz", process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []);
try {
  let n = 0;
  const apiMemory = sampleRss(api);
  const signals = await runLoad({
    name: "POST /tickets/v1/signals",
    url: "http://127.0.0.1:3914/tickets/v1/signals",
    connections: CONCURRENCY,
    durationSeconds: SECONDS,
    headers: { "ai-security-key": KEY },
    body: () => JSON.stringify(entrySignal(1 + (n++ % TICKETS), "M", "Since 9am no customer can pay: checkout shows a 500 error.")),
  });
  const apiRss = apiMemory.stop();
  console.log(
    `signals, concurrency ${CONCURRENCY}, ${TICKETS} tickets, each a new thread entry: ${Math.round(signals.rps)} accepted/s, p50 ${signals.p50} ms, p99 ${signals.p99} ms (${signals.non2xx} non-2xx, ${signals.errors} errors); API RSS ${apiRss} MB (peak)`,
  );

  const owed = await prisma.urgencyQueueEntry.count({ where: { processed: false } });
  const started = performance.now();
  const worker = await startProcess("packages/worker/src/main.ts", { ...env, WORKER_QUEUES: "urgency", PORT: "0", WORKER_CONCURRENCY_URGENCY: String(CONCURRENCY) }, "http://127.0.0.1:3914/healthz");
  const workerRss = sampleRss(worker);
  try {
    let done = 0;
    while (done < owed) {
      await sleep(250);
      done = await prisma.urgencyQueueEntry.count({ where: { processed: true } });
    }
    const seconds = (performance.now() - started) / 1000;
    const rssMb = workerRss.stop() ?? null;
    console.log(`analyses, one worker process at concurrency ${CONCURRENCY}, limiter lifted: ${owed} tickets in ${seconds.toFixed(1)} s (worker start included) = ${Math.round(owed / seconds)} analyses/s; ${gemini.calls.length} provider calls; worker RSS ${rssMb} MB (peak)`);
    const none = { baseline: null, target: null, met: null };
    reportResult({ ...none, path: `ticket-system signals, concurrency ${CONCURRENCY}`, figure: `${Math.round(signals.rps)} accepted/s`, p99Ms: signals.p99, rssApiMb: apiRss ?? null, rssWorkerMb: null });
    reportResult({ ...none, path: `urgency analyses, one worker process, concurrency ${CONCURRENCY}`, figure: `${Math.round(owed / seconds)} analyses/s`, p99Ms: null, rssApiMb: null, rssWorkerMb: rssMb });
  } finally {
    await stopProcess(worker);
  }
} finally {
  await stopProcess(api);
  await clearQueuePrefix(env.QUEUE_PREFIX);
  await prisma.$disconnect();
  await gemini.stop();
}
process.exit(0);
