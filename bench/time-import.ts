// `pnpm bench:time-import`: Harvest time entries imported per second by one
// worker from a fake account with 20,000 entries over 200 projects (each
// linked to a ticket), and the request rate the worker held against
// Harvest's 100 requests per 15 s. Needs MariaDB and Redis; the fake runs in
// this process.
import { setTimeout as sleep } from "node:timers/promises";
import { createPrisma, createRedis, Queues } from "@mw/platform";
import { OptionStore } from "@mw/domains/options";
import { timeImportJob } from "@mw/domains/timetracking";
import { seedTicket } from "../scripts/support/seed.ts";
import { FakeHarvest } from "../test/fakes/harvest.ts";
import { clearQueuePrefix, freshBenchEnvironment } from "./lib/database.ts";
import { sampleRss, startProcess, stopProcess } from "./lib/processes.ts";
import { reportResult } from "./lib/result.ts";

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 200);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 20_000);

const harvest = await new FakeHarvest().start();
const { env, databaseUrl, key } = await freshBenchEnvironment("timeimport", { PORT: "3915", HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url });
const prisma = createPrisma(databaseUrl);
const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const queues = new Queues(redis, env.QUEUE_PREFIX);
await new OptionStore(prisma, key).set({ "time_api.enabled": true, "time_api.sync_account_id": harvest.accountId, "time_api.sync_token": harvest.personalToken(), "time_api.sync_user_agent": "Bench (bench@example.com)" });
for (let p = 0; p < PROJECTS; p += 1) {
  const project = harvest.addProject({ name: `Project ${p}`, budget: 100_000 });
  for (let e = 0; e < ENTRIES / PROJECTS; e += 1) harvest.addEntry(project, { hours: 0.25, notes: `Work ${e}` });
  await seedTicket(prisma, { id: p + 1, number: String(100_000 + p), subject: `Ticket ${p}`, status: "open", opened_at: new Date(), time_project_id: project.id });
}
// The API answers the readiness probe; the worker does the work.
const api = await startProcess("packages/api/src/main.ts", env, "http://127.0.0.1:3915/healthz");
const worker = await startProcess("packages/worker/src/main.ts", { ...env, WORKER_QUEUES: "timetracking" }, "http://127.0.0.1:3915/healthz");
const launched = performance.now();
const workerRss = sampleRss(worker);
try {
  // The worker's schedule runs the import as it starts (worker start-up included): that run is the one measured.
  const queue = queues.get("timetracking");
  let done = 0;
  while (done < ENTRIES) {
    await sleep(500);
    done = await prisma.projectTimeEntry.count();
    const failed = (await queue.getJobs(["failed"])).find((candidate) => candidate.name === timeImportJob.name);
    if (failed) throw new Error(`the import failed: ${failed.failedReason}`);
  }
  while ((await queue.getJobCounts("active")).active) await sleep(200);
  const seconds = (performance.now() - launched) / 1000;
  const requests = harvest.admitted.length;
  console.log(`time import, one worker: ${ENTRIES} entries over ${PROJECTS} projects in ${seconds.toFixed(1)} s = ${Math.round(ENTRIES / seconds)} entries/s`);
  const rssMb = workerRss.stop() ?? null;
  console.log(`Harvest requests: ${requests} in ${seconds.toFixed(1)} s = ${(requests / (seconds / 15)).toFixed(1)} per 15 s (limit 100); busiest 15 s window ${harvest.busiestWindow()}; 429 answers ${harvest.refused}; worker RSS ${rssMb} MB (peak)`);
  reportResult({
    path: `Harvest time import, one worker, ${ENTRIES} entries`,
    baseline: null,
    figure: `${Math.round(ENTRIES / seconds)} entries/s, busiest 15 s ${harvest.busiestWindow()} requests, ${harvest.refused} x 429`,
    target: "<= 100 Harvest requests per 15 s, no 429",
    met: harvest.busiestWindow() <= 100 && harvest.refused === 0,
    p99Ms: null,
    rssApiMb: null,
    rssWorkerMb: rssMb,
  });
} finally {
  await stopProcess(worker);
  await stopProcess(api);
  await clearQueuePrefix(env.QUEUE_PREFIX);
  await queues.close();
  await redis.quit();
  await prisma.$disconnect();
  await harvest.stop();
}
process.exit(0);
