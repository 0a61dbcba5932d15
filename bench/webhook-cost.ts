// `pnpm bench:webhook-cost`: what one accepted acquirer webhook costs, beside the
// plain baseline (Express + one queue.add): Redis commands (INFO commandstats,
// which counts the commands inside scripts too), MariaDB statements (the global
// Com_* counters) and the serving process's CPU per request. The counters are
// server-wide, so run it against a MariaDB and a Redis nothing else uses
// (BENCH_DATABASE_URL and REDIS_URL, e.g. servers `pnpm services` started on free ports).
import autocannon from "autocannon";
import mariadb from "mariadb";
import type { ChildProcess } from "node:child_process";
import { loadavg } from "node:os";
import { createRedis } from "@mw/platform";
import { clearQueuePrefix, freshBenchEnvironment } from "./lib/database.ts";
import { cpuMillis, startProcess, stopProcess } from "./lib/processes.ts";
import { median } from "./lib/steady-rate.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const COUNTERS = ["Questions", "Com_insert", "Com_begin", "Com_commit", "Com_rollback", "Com_select", "Com_update", "Com_stmt_prepare", "Com_stmt_execute", "Com_set_option", "Com_admin_commands"];

const { env, databaseUrl } = await freshBenchEnvironment("webhook_cost", { PORT: "3913" });
let seq = 0;
const body = () => {
  seq += 1;
  return JSON.stringify({ event_type: "dispute.created", api_response: JSON.stringify({ case_id: `COST-${process.pid}-${seq}` }), request_payload: JSON.stringify({ mid: "12345", auth_code: "AB12CD", transaction_date: "2026-11-01" }) });
};
const fire = (url: string, amount: number) =>
  autocannon({ url, method: "POST", connections: CONNECTIONS, amount, headers: { "content-type": "application/json" }, requests: [{ setupRequest: (r) => ({ ...r, body: body() }) }] });

const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const db = await mariadb.createConnection(databaseUrl.replace(/^mysql:/, "mariadb:"));

/** The server's statement counters now (each read counts itself once in Questions). */
async function dbCounters(): Promise<Map<string, number>> {
  const rows = (await db.query(`SHOW GLOBAL STATUS WHERE Variable_name IN (${COUNTERS.map(() => "?").join(",")})`, COUNTERS)) as { Variable_name: string; Value: string }[];
  return new Map(rows.map((row) => [row.Variable_name, Number(row.Value)]));
}

interface Cost {
  cpuMicros: number;
  redis: string;
  mariadb: string;
}

/** Sends REQUESTS requests to `url` and answers what each accepted one cost. */
async function measure(child: ChildProcess, url: string): Promise<Cost> {
  await redis.config("RESETSTAT");
  const dbBefore = await dbCounters();
  const cpuBefore = cpuMillis(child)!;
  const result = await fire(url, REQUESTS);
  const cpu = cpuMillis(child)! - cpuBefore;
  const dbAfter = await dbCounters();
  const accepted = result["2xx"];
  const per = (n: number) => (n / accepted).toFixed(3).replace(/\.?0+$/, "");
  const redisCalls = [...(await redis.info("commandstats")).matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)].filter(([, command]) => command !== "config");
  if (accepted !== REQUESTS) throw new Error(`${url}: only ${accepted} of ${REQUESTS} requests were accepted`);
  return {
    cpuMicros: Math.round((cpu / accepted) * 1000),
    redis: redisCalls.map(([, command, calls]) => `${command} ${per(Number(calls))}`).join(", "),
    mariadb: COUNTERS.map((counter) => `${counter} ${per(dbAfter.get(counter)! - dbBefore.get(counter)! - (counter === "Questions" ? 1 : 0))}`).join(", "),
  };
}

/** Warms both up, then measures them in alternation (background load drifts) and prints each one's rounds and median CPU. */
async function compare(endpoints: { name: string; child: ChildProcess; url: string }[]): Promise<void> {
  for (const endpoint of endpoints) await fire(endpoint.url, 2000);
  const costs = endpoints.map(() => [] as Cost[]);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [i, endpoint] of endpoints.entries()) costs[i]!.push(await measure(endpoint.child, endpoint.url));
  }
  console.log(`\nper accepted request, ${ROUNDS} alternating rounds of ${REQUESTS} requests at concurrency ${CONNECTIONS} (load average ${loadavg().map((n) => n.toFixed(1)).join(", ")})`);
  for (const [i, endpoint] of endpoints.entries()) {
    const rounds = costs[i]!;
    const last = rounds.at(-1)!;
    console.log(`${endpoint.name}: CPU ${median(rounds.map((cost) => cost.cpuMicros))} µs (median; rounds ${rounds.map((cost) => cost.cpuMicros).join(", ")})`);
    console.log(`  Redis: ${last.redis}`);
    console.log(`  MariaDB: ${last.mariadb}`);
  }
}

const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
const baseline = await startProcess("bench/lib/bare-queue.ts", { ...env, PORT: "3914" }, "http://127.0.0.1:3914/", nodeArgs);
const plain = await startProcess("bench/lib/plain-queue.mjs", { ...env, PORT: "3915" }, "http://127.0.0.1:3915/", nodeArgs);
try {
  const api = await startProcess("packages/api/src/main.ts", env, "http://127.0.0.1:3913/healthz", nodeArgs);
  try {
    await compare([
      { name: "plain Express + queue.add", child: plain, url: "http://127.0.0.1:3915/webhook" },
      { name: "Express + queue.add", child: baseline, url: "http://127.0.0.1:3914/webhook" },
      { name: "POST /webhooks/acquirer", child: api, url: "http://127.0.0.1:3913/middleware/v1/webhooks/acquirer" },
    ]);
  } finally {
    await stopProcess(api);
  }
} finally {
  await db.end();
  redis.disconnect();
  await stopProcess(baseline);
  await stopProcess(plain);
  await clearQueuePrefix(env.QUEUE_PREFIX);
}
