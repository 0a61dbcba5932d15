// `pnpm bench`: runs the throughput benches one after another, each as its own
// process (its tables print as it goes), then prints one table of what they
// reported: each figure beside its baseline from the same run, the target, and
// the API and worker memory under load. `pnpm bench orders recovery` runs a subset;
// options go to every bench run (`pnpm bench webhook --with-worker`).
// A bench that crashes shows as a failed row and makes the exit code 1; an
// unmet target does not (wall-clock figures move with the machine's load).
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { createInterface } from "node:readline";
import { ROOT } from "./lib/processes.ts";
import { RESULT_MARK, type BenchResult } from "./lib/result.ts";

/**
 * Each bench with the environment it runs with here: the rows first, the disputes bench
 * only at the concurrency, three rounds (its figure is their median). bench:knowledge is left out: it measures retrieval quality and
 * an index inside its own process, not a platform process under load.
 */
const BENCHES: Record<string, Record<string, string>> = {
  orders: {},
  webhook: {},
  disputes: { BENCH_CONCURRENCY: process.env.BENCH_CONCURRENCY ?? "20,20,20" },
  recovery: {},
  ai: {},
  urgency: {},
  images: {},
  tracking: {},
  "time-import": {},
};

const crashed: string[] = [];

/** Runs one bench, echoing its output, and answers the rows it reported (a bench may report several paths). */
async function run(name: string, options: string[]): Promise<BenchResult[]> {
  const child = spawn(process.execPath, ["--import", "tsx", `bench/${name}.ts`, ...options], {
    cwd: ROOT,
    env: { ...process.env, ...BENCHES[name] },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const reported: BenchResult[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith(RESULT_MARK)) reported.push(JSON.parse(line.slice(RESULT_MARK.length)) as BenchResult);
    else console.log(line);
  }
  const code = child.exitCode ?? (await new Promise<number | null>((resolve) => child.once("exit", resolve)));
  if (code === 0 && reported.length) return reported;
  crashed.push(name);
  return [{ path: name, baseline: null, figure: `failed (exit ${code}${reported.length ? "" : ", no result"})`, target: null, met: false, p99Ms: null, rssApiMb: null, rssWorkerMb: null }];
}

const args = process.argv.slice(2);
const options = args.filter((arg) => arg.startsWith("--"));
const named = args.filter((arg) => !arg.startsWith("--"));
const names = named.length ? named : Object.keys(BENCHES);
const unknown = names.filter((name) => !(name in BENCHES));
if (unknown.length) {
  console.error(`unknown bench: ${unknown.join(", ")} (known: ${Object.keys(BENCHES).join(", ")})`);
  process.exit(64);
}
const load = () => loadavg().map((n) => n.toFixed(2)).join(", ");
const loadBefore = load();
const results: BenchResult[] = [];
for (const name of names) {
  console.log(`\n=== bench:${name}`);
  results.push(...(await run(name, options)));
}

console.log(`\nsummary (load average before ${loadBefore}, after ${load()})`);
console.table(
  results.map((r) => ({
    path: r.path,
    "baseline (same run)": r.baseline ?? "-",
    figure: r.figure,
    target: r.target ?? "-",
    "met?": r.met === null ? "-" : r.met ? "yes" : "NO",
    "p99 ms": r.p99Ms ?? "-",
    "RSS API MB": r.rssApiMb ?? "-",
    "RSS worker MB": r.rssWorkerMb ?? "-",
  })),
);
process.exitCode = crashed.length ? 1 : 0;
