// `pnpm bench:orders`: orders per second and latency for 5-line orders at concurrency 20,
// beside a bare Express endpoint measured in the same run (issue 3). Needs MariaDB and Redis.
import { createPrisma } from "@mw/platform";
import { issueSiteApiKey } from "@mw/domains/sites";
import { upsertItems } from "@mw/domains/inventory";
import { seedSite } from "../scripts/support/seed.ts";
import { clearQueuePrefix, freshBenchEnvironment } from "./lib/database.ts";
import { orderBody } from "../test/support/fixtures.ts";
import { compareLoads, printComparison, runLoad } from "./lib/load.ts";
import { sampleRss, startProcess, stopProcess } from "./lib/processes.ts";
import { againstBaseline, reportResult } from "./lib/result.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const { env, databaseUrl } = await freshBenchEnvironment("orders", { PORT: "3901" });
const prisma = createPrisma(databaseUrl, { connectionLimit: 2 });
const skus = Array.from({ length: 200 }, (_, i) => `BENCH-${i}`);
await upsertItems({ prisma }, skus.map((sku) => ({ sku, name: sku, price: 9.99, stock: 100 })));
const site = await seedSite(prisma, { name: "Bench shop", platform: "storefront_a", site_url: "https://bench.example" });
const { key } = await issueSiteApiKey({ prisma }, site.id, "bench");
await prisma.$disconnect();

let seq = 0;
function order(): string {
  seq += 1;
  return JSON.stringify(
    orderBody(`B${process.pid}-${seq}`, {
      date: "2026-11-21T10:00:00Z",
      payment_method: "pay_2",
      transaction_id: `T${seq}`,
      line_items: [
        ...Array.from({ length: 4 }, (_, i) => ({ line_number: i + 1, sku: skus[(seq + i) % skus.length], quantity: 1 + i, unit_price: 9.99 })),
        { line_number: 5, sku: "SHIPPING", quantity: 1, unit_price: 5 },
      ],
    }),
  );
}

const bare = await startProcess("bench/lib/bare-express.ts", { PORT: "3902" }, "http://127.0.0.1:3902/");
const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
const api = await startProcess("packages/api/src/main.ts", env, "http://127.0.0.1:3901/healthz", nodeArgs);
try {
  // Warm-up: connection pools, JIT.
  await runLoad({ name: "warm-up", url: "http://127.0.0.1:3901/middleware/v1/external/orders", connections: CONNECTIONS, durationSeconds: 3, headers: { authorization: `Bearer ${key}` }, body: order });
  const rss = sampleRss(api);
  const [bareRun, orders] = await compareLoads(
    [
      { name: "bare Express (parse JSON, 201)", url: "http://127.0.0.1:3902/orders", connections: CONNECTIONS, body: order },
      {
        name: "POST /external/orders (5 lines)",
        url: "http://127.0.0.1:3901/middleware/v1/external/orders",
        connections: CONNECTIONS,
        headers: { authorization: `Bearer ${key}` },
        body: order,
      },
    ],
    ROUNDS,
    SECONDS,
  );
  const apiRss = rss.stop();
  const target = ">= 2000 orders/s and >= 20 % of bare Express, p99 < 50 ms";
  printComparison(`orders: concurrency ${CONNECTIONS}, ${ROUNDS} alternating rounds of ${SECONDS} s, target ${target}`, [bareRun!, orders!]);
  console.log(`API RSS under load: ${apiRss} MB (peak)`);
  const met = orders!.rps >= 2000 && orders!.rps >= 0.2 * bareRun!.rps && orders!.p99 < 50;
  reportResult(againstBaseline(`order intake, 5 lines, concurrency ${CONNECTIONS}`, bareRun!, orders!, "orders/s", { text: target, met }, apiRss));
} finally {
  await stopProcess(api);
  await stopProcess(bare);
  await clearQueuePrefix(env.QUEUE_PREFIX);
}
