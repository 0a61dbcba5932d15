import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { TcpProxy } from "../../test/support/tcp-proxy.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A Redis of the chaos run's own, on its own port, so restarting it (with or
 * without its data) touches nothing else on the machine.
 */
export class ChaosRedis {
  private child?: ChildProcess;
  private readonly dir = mkdtempSync(path.join(tmpdir(), "mw-chaos-redis-"));

  constructor(readonly port: number) {}

  /** `persistent`: an append-only file keeps the data across a restart; without it Redis restarts empty. */
  async start(persistent: boolean): Promise<void> {
    this.child = spawn("redis-server", ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", persistent ? "yes" : "no", "--appendfsync", "always", "--dir", this.dir], {
      stdio: "ignore",
    });
    for (let i = 0; i < 100; i += 1) {
      if (await this.answers()) return;
      await sleep(50);
    }
    throw new Error(`redis-server on port ${this.port} did not start`);
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGKILL");
    });
  }

  /** Forgets the append-only file: the next start is a Redis that lost everything. */
  wipe(): void {
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir);
  }

  private async answers(): Promise<boolean> {
    return new Promise((resolve) => {
      const client = connect(this.port, "127.0.0.1");
      client.once("error", () => resolve(false));
      client.once("data", (data) => {
        client.destroy();
        resolve(data.toString().startsWith("+PONG"));
      });
      client.once("connect", () => client.write("PING\r\n"));
    });
  }
}

/** A platform process (API or worker) started from its TypeScript entry point, with its output kept for the report. */
export class PlatformProcess {
  private child?: ChildProcess;
  output = "";

  constructor(
    private readonly entry: string,
    private readonly env: () => Record<string, string>,
  ) {}

  async start(ready: RegExp): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", this.entry], { cwd: ROOT, env: { ...process.env, ...this.env() }, stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    const seen = this.output.length;
    child.stdout!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    for (let i = 0; i < 600; i += 1) {
      if (ready.test(this.output.slice(seen))) return;
      if (child.exitCode !== null) throw new Error(`${this.entry} exited: ${this.output.slice(-2000)}`);
      await sleep(50);
    }
    throw new Error(`${this.entry} did not start: ${this.output.slice(-2000)}`);
  }

  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill(signal);
    });
  }
}

export { TcpProxy };
