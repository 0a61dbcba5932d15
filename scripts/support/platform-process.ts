import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** True when nothing listens on 127.0.0.1:port. */
export async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A platform process (API or worker) started from its TypeScript entry point, with its output kept for the report. */
export class PlatformProcess {
  private child?: ChildProcess;
  /** Children stop() was asked to end: their exit is no surprise. */
  private readonly stopped = new WeakSet<ChildProcess>();
  output = "";
  /** Exits nobody asked for (a crash, an exit on its own), each with the end of the output: a run that lost work can say why. */
  readonly unexpectedExits: string[] = [];

  constructor(
    private readonly entry: string,
    private readonly env: () => Record<string, string>,
  ) {}

  async start(ready: RegExp): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", this.entry], { cwd: ROOT, env: { ...process.env, ...this.env() }, stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    const seen = this.output.length;
    // "close": after the last output, so a crash's message is in the tail.
    child.once("close", (code, signal) => {
      if (!this.stopped.has(child)) this.unexpectedExits.push(`${this.entry} exited on its own (${signal ?? `code ${code}`}); its last output:\n${this.output.slice(-2000)}`);
    });
    child.stdout!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    // Two minutes: on a loaded machine tsx alone takes tens of seconds to compile an entry point.
    for (let i = 0; i < 2400; i += 1) {
      if (ready.test(this.output.slice(seen))) return;
      if (child.exitCode !== null) throw new Error(`${this.entry} exited: ${this.output.slice(-2000)}`);
      await sleep(50);
    }
    throw new Error(`${this.entry} did not start within 2 minutes: ${this.output.slice(-2000)}`);
  }

  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.stopped.add(child);
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill(signal);
    });
  }
}

