// `pnpm start`: migrate, then run the API (with Bull Board) and one worker, until Ctrl-C.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { getConfigOrExit } from "@mw/shared";
import { migrate } from "./migrations/apply.ts";

const ENV_FILE = new URL("../.env", import.meta.url);

// A first run on a new machine gets its own encryption key, kept in .env (never committed).
if (!process.env.ENCRYPTION_KEY && !(existsSync(ENV_FILE) && /^ENCRYPTION_KEY=./m.test(readFileSync(ENV_FILE, "utf8")))) {
  const line = `ENCRYPTION_KEY=${randomBytes(32).toString("hex")}\n`;
  writeFileSync(ENV_FILE, existsSync(ENV_FILE) ? `${readFileSync(ENV_FILE, "utf8").replace(/\n?$/, "\n")}${line}` : line);
  console.log("wrote a new ENCRYPTION_KEY to .env: back it up, stored secrets cannot be read without it");
}

const config = getConfigOrExit();
const result = await migrate(config.DATABASE_URL, { log: (line) => console.log(line) });
console.log(`database ${result.database}: ${result.applied.length ? `${result.applied.length} migration(s) applied` : "up to date"}`);

const children: ChildProcess[] = [];
let stopping = false;

function run(name: string, entry: string): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", entry], { stdio: "inherit", env: process.env });
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`${name} exited (${signal ?? code}); stopping the platform`);
    stop(1);
  });
  children.push(child);
  return child;
}

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  let left = children.length;
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) left -= 1;
    else child.on("exit", () => (left -= 1) || process.exit(code));
  }
  if (left === 0) process.exit(code);
}

run("api", "packages/api/src/main.ts");
run("worker", "packages/worker/src/main.ts");
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

const base = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
console.log(`
  API         ${base}${config.API_ROOT}
  Bull Board  ${base}/admin/queues
  API docs    ${base}/docs
  Health      ${base}/readyz

  Create an admin (prints an application password for HTTP Basic, once):
    pnpm cli user:create --login admin --capabilities manage_middleware,manage_options
`);
