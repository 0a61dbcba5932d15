// Loaded into a soaked process with `--import` (bench/soak.ts): every 2 s it writes the process's own memory
// figures to SOAK_MEMORY_DIR/<pid>.json, which the soak reads; a heap is only visible from inside the process.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { setInterval } from "node:timers";

const dir = process.env.SOAK_MEMORY_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${process.pid}.json`);
  const write = () => {
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    writeFileSync(file, JSON.stringify({ at: Date.now(), rss, heapUsed, heapTotal, external }));
  };
  write();
  setInterval(write, 2000).unref();
}
