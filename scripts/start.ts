// `pnpm start`: make sure MariaDB and Redis answer (starting local ones when
// the URLs are the local defaults and nothing listens, creating the database user in a
// local MariaDB that lacks it), migrate, then run the API (with Bull Board) and
// one worker until Ctrl-C.
import { spawn, type ChildProcess } from "node:child_process";
import { checkServices, createPrisma, getConfigOrExit } from "@mw/platform";
import { administratorExists } from "@mw/domains/identity";
import { migrate } from "./migrations/apply.ts";
import { LocalServicesError, startLocalServices, type LocalServices } from "./services/local.ts";
import { ensureEncryptionKey } from "./support/env-file.ts";
import { startBanner } from "./support/start-banner.ts";
import { WORKER_NODE_FLAGS } from "../packages/worker/src/runtime/node-flags.ts";

// A first run on a new machine gets its own encryption key, kept in .env (never committed, owner-only).
const envFile = ensureEncryptionKey(new URL("../.env", import.meta.url));
if (envFile.tightened) console.log(".env was readable by other users: now 0600 (owner only), as it holds secrets");
if (envFile.wroteKey) console.log("wrote a new ENCRYPTION_KEY to .env (0600): back it up, stored secrets cannot be read without it");

const config = getConfigOrExit("api");
let local: LocalServices;
try {
  local = await startLocalServices({ databaseUrl: config.DATABASE_URL, redisUrl: config.REDIS_URL, onlyAtDefaultAddress: true });
} catch (error) {
  console.error((error as Error).message);
  process.exit(error instanceof LocalServicesError ? error.exitCode : 69); // EX_UNAVAILABLE
}
for (const line of local.started) console.log(`started ${line}; it stops with the platform`);
for (const line of local.prepared) console.log(line);

async function exit(code: number): Promise<never> {
  await local.stop();
  process.exit(code);
}

const problems = await checkServices(config, { database: false });
for (const problem of problems) console.error(problem.line);
if (problems.length) await exit(problems[0]!.exitCode);

const result = await migrate(config.DATABASE_URL, { log: (line) => console.log(line) });
console.log(`database ${result.database}: ${result.applied.length ? `${result.applied.length} migration(s) applied` : "up to date"}`);

const children: ChildProcess[] = [];
let stopping = false;

function run(name: string, entry: string, nodeFlags: string[] = []): Promise<void> {
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", entry], { stdio: ["inherit", "inherit", "inherit", "ipc"], env: process.env });
  children.push(child);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`${name} exited (${signal ?? code}); stopping the platform`);
    void stop(code || 1);
  });
  return new Promise((resolve) => child.on("message", (message) => message === "ready" && resolve()));
}

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // A Ctrl-C reached the children already (same process group); a second,
  // different signal only asks again, so they still drain.
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      return exited;
    }),
  );
  await exit(code);
}

process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
await Promise.all([run("api", "packages/api/src/main.ts"), run("worker", "packages/worker/src/main.ts", WORKER_NODE_FLAGS)]);

const prisma = createPrisma(config.DATABASE_URL, { connectionLimit: 1 });
const administrator = await administratorExists({ prisma }).finally(() => prisma.$disconnect());
console.log(startBanner(config, administrator));
