// `pnpm bench:text`: how long each function that reads request, customer or
// upstream text takes on each adversarial shape (test/fixtures/
// adversarial-text.ts; docs/security.md, "Text handling: linear time") at
// 100 KB (the AI routes' limit) and at 1 MB. Each figure is the median of five
// runs in milliseconds of the process's CPU time (user and system), which
// other processes on the machine move less than the wall clock.
import { loadavg } from "node:os";
import { adversarialTexts, TEXT_FUNCTIONS } from "../test/fixtures/adversarial-text.ts";

const RUNS = 5;

function medianMs(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

/** The slowest shape at `length` characters. */
function slowest(read: (text: string) => unknown, length: number): { shape: string; ms: number } {
  return Object.entries(adversarialTexts(length))
    .map(([shape, text]) => ({ shape, ms: medianMs(() => read(text)) }))
    .reduce((worst, run) => (run.ms > worst.ms ? run : worst));
}

console.log(`load average ${loadavg()[0]!.toFixed(2)}; CPU milliseconds, slowest of ${Object.keys(adversarialTexts(1024)).length} shapes`);
console.log(`${"function".padEnd(64)}${"100 KB".padStart(8)}${"1 MB".padStart(9)}  slowest shape at 1 MB`);
for (const [name, read] of Object.entries(TEXT_FUNCTIONS)) {
  const small = slowest(read, 100 * 1024);
  const large = slowest(read, 1024 * 1024);
  console.log(`${name.padEnd(64)}${small.ms.toFixed(1).padStart(8)}${large.ms.toFixed(1).padStart(9)}  ${large.shape}`);
}
