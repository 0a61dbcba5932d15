// `pnpm cli`: the compiled CLI when `pnpm build` has compiled every source file it loads since that file
// last changed, else the sources under tsx. tsx costs about 0.2 s of CPU before any command runs and
// more per module it loads, which a built checkout saves, and one with edits since its build still runs
// what is in src/. Run as `node --conditions=dist` (package.json), so the
// compiled modules import each other's dist/ (package.json "exports"); the tsx run is a child without it.
// package.json's `--wasm-tiering-budget` (100 times V8's) keeps one command's first queries from
// compiling Prisma's query compiler (WebAssembly) again with TurboFan, about 0.3 s of CPU, while a
// long import can still get there; the child takes the same flags.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";
import { entryBuilt } from "./support/built.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const args = process.argv.slice(2);
// The CLI is the API package's: its commands, the domains and what they import.
if (entryBuilt(ROOT, "api")) {
  const { main } = await import("../packages/api/dist/cli/main.js");
  process.exitCode = await main(args);
} else {
  const flags = process.execArgv.filter((flag) => flag !== "--conditions=dist");
  const run = spawnSync(process.execPath, [...flags, "--import", "tsx", join(ROOT, "packages/api/src/cli/main.ts"), ...args], { stdio: "inherit" });
  if (run.signal) process.kill(process.pid, run.signal);
  process.exitCode = run.status ?? 1;
}
