// `pnpm bench:images`: images served per second and latency for 200 KB JPEGs at concurrency 20
// from local storage (issue 6): the streamed random pick and the base64 serial lookup, in
// alternating rounds. Needs MariaDB and Redis.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPrisma } from "@mw/platform";
import { issueImageApiKey } from "@mw/domains/images";
import { seedSerialNumbers } from "../scripts/support/seed.ts";
import { fakeJpeg } from "../test/support/jpeg.ts";
import { freshBenchEnvironment } from "./lib/database.ts";
import { compareLoads, printComparison, runLoad } from "./lib/load.ts";
import { sampleRss, startProcess, stopProcess } from "./lib/processes.ts";
import { reportResult } from "./lib/result.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const IMAGE_BYTES = 200 * 1024;
const IMAGES = 50;
const SERIALS = 240157;

const storageDir = await mkdtemp(path.join(tmpdir(), "mw-bench-images-"));
const { env, databaseUrl } = await freshBenchEnvironment("images", { PORT: "3911", STORAGE_DIR: storageDir });
await mkdir(path.join(storageDir, "bench"), { recursive: true });
for (let i = 0; i < IMAGES; i += 1) await writeFile(path.join(storageDir, "bench", `img-${i}.jpg`), fakeJpeg(IMAGE_BYTES, i + 1));
const prisma = createPrisma(databaseUrl, { connectionLimit: 2 });
// The whole random range filled, so every random pick is a hit; the images repeat every 50 ids.
await seedSerialNumbers(prisma, SERIALS, "BENCH", `CONCAT('bench/img-', seq % ${IMAGES}, '.jpg')`);
const { key } = await issueImageApiKey({ prisma }, "bench");
await prisma.$disconnect();

const base = "http://127.0.0.1:3911";
const query = `api_key=${encodeURIComponent(key)}`;
let seq = 0;
const serialPath = () => {
  seq = (seq % SERIALS) + 1;
  return `/api/image?serial_number=BENCH-${seq}&${query}`;
};
const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
const api = await startProcess("packages/api/src/main.ts", env, `${base}/healthz`, nodeArgs);
try {
  await runLoad({ name: "warm-up", method: "GET", url: `${base}/api/image-random?${query}`, connections: CONNECTIONS, durationSeconds: 3 });
  const rss = sampleRss(api);
  const results = await compareLoads(
    [
      { name: "GET /api/image-random (raw JPEG, streamed)", method: "GET", url: `${base}/api/image-random?${query}`, connections: CONNECTIONS },
      { name: "GET /api/image (JSON, base64)", method: "GET", url: `${base}${serialPath()}`, path: serialPath, connections: CONNECTIONS },
    ],
    ROUNDS,
    SECONDS,
  );
  const apiRss = rss.stop();
  printComparison(`images: 200 KB JPEGs from local storage, concurrency ${CONNECTIONS}, ${ROUNDS} alternating rounds of ${SECONDS} s (req/s = images/s)`, results);
  console.log(`API RSS under load: ${apiRss} MB (peak)`);
  for (const result of results) {
    reportResult({ path: `${result.name}, concurrency ${CONNECTIONS}`, baseline: null, figure: `${result.rps} images/s`, target: null, met: null, p99Ms: result.p99, rssApiMb: apiRss ?? null, rssWorkerMb: null });
  }
} finally {
  await stopProcess(api);
  await rm(storageDir, { recursive: true, force: true });
}
