// One redis-server process (a node or a sentinel) of a local topology, which
// tests and chaos runs can kill and start again on the same port and folder.
import type { ChildProcess } from "node:child_process";
import { createRedis } from "@mw/platform";
import { binary, launch, stopChild, waitUntil } from "./children.ts";

const running = new Set<ChildProcess>();
let exitHookSet = false;

/**
 * The servers run in their own process group (so a terminal's Ctrl-C leaves
 * them to stop() while clients drain); a parent that ends without calling
 * stop() (a failed test, an uncaught error) must not leave them behind.
 */
function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once("exit", () => running.delete(child));
  if (exitHookSet) return;
  exitHookSet = true;
  process.once("exit", () => {
    for (const left of running) left.kill("SIGKILL");
  });
}

export function redisServerBinary(): string {
  const found = binary(["redis-server", "/usr/bin/redis-server"]);
  if (!found) throw new Error("Redis is not installed here (no redis-server): install it (apt-get install redis-server)");
  return found;
}

/** A server's TLS files (its port is then TLS only); the CA signs the certificate and is what clients verify it with. */
export interface RedisTls {
  certFile: string;
  keyFile: string;
  caFile: string;
}

/** redis-server's TLS arguments for a TLS-only node on `port`: clients need no certificate of their own; replication (and a cluster's bus) run over TLS too. */
export function tlsArgs(port: number, tls: RedisTls): string[] {
  return ["--port", "0", "--tls-port", String(port), "--tls-cert-file", tls.certFile, "--tls-key-file", tls.keyFile, "--tls-ca-cert-file", tls.caFile, "--tls-auth-clients", "no", "--tls-replication", "yes"];
}

/** Sends one command to 127.0.0.1:port over a one-shot connection (TLS with `tlsCaFile`); undefined when the server does not answer. */
export async function ask(port: number, password: string | undefined, command: string, ...args: (string | number)[]): Promise<unknown> {
  return askOver(port, password, undefined, command, ...args);
}

async function askOver(port: number, password: string | undefined, tlsCaFile: string | undefined, command: string, ...args: (string | number)[]): Promise<unknown> {
  const auth = password === undefined ? "" : `:${encodeURIComponent(password)}@`;
  const redis = createRedis(`${tlsCaFile ? "rediss" : "redis"}://${auth}127.0.0.1:${port}`, { probe: true, name: "mw-services", tlsCaFile });
  redis.on("error", () => {});
  try {
    await redis.connect();
    return await redis.call(command, ...args);
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

export class RedisServer {
  private child?: ChildProcess;

  /** `args` are redis-server's (for a sentinel: the config file, then --sentinel). */
  constructor(
    readonly port: number,
    readonly role: "node" | "sentinel",
    private readonly args: string[],
    private readonly logFile: string,
    /** What clients must authenticate with, if anything. */
    readonly password?: string,
    /** Set for a TLS-only server: the CA its certificate is verified with. */
    readonly tlsCaFile?: string,
  ) {}

  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process and resolves once it answers PING. */
  async start(): Promise<void> {
    if (this.running) return;
    const child = launch(redisServerBinary(), this.args, this.logFile);
    this.child = child;
    killOnExit(child);
    await waitUntil(async () => (await this.ask("PING")) === "PONG", child, `redis-server on port ${this.port}`, this.logFile);
  }

  ask(command: string, ...args: (string | number)[]): Promise<unknown> {
    return askOver(this.port, this.password, this.tlsCaFile, command, ...args);
  }

  /** Ends the process without letting it save or hand over anything (kill -9 by default), and waits until it is gone. */
  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
  }

  /** A clean shutdown (SIGTERM, SIGKILL after 20 s). */
  async stop(): Promise<void> {
    if (this.child) await stopChild(this.child);
  }
}
