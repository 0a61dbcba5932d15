import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createRedis, Queues, type QueueName } from "@mw/platform";
import type { Cluster } from "ioredis";
import { TcpProxy } from "../../test/support/tcp-proxy.ts";
import type { LocalRedisCluster } from "../services/redis-cluster.ts";
import type { RedisServer } from "../services/redis-server.ts";

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

export { TcpProxy };
export { freePort, PlatformProcess } from "../support/platform-process.ts";

/** The node of a local cluster that is master of `queue`'s keys now (on a cluster each queue has its own slot). */
export async function masterOfQueue(cluster: LocalRedisCluster, prefix: string, queue: QueueName): Promise<RedisServer> {
  const client = createRedis(cluster.url, { name: "mw-chaos-slots" }) as Cluster;
  const queues = new Queues(client, prefix);
  try {
    const slot = Number(await client.call("CLUSTER", "KEYSLOT", queues.get(queue).toKey("meta")));
    const port = Number(client.slots[slot]![0]!.split(":").pop());
    return cluster.nodes.find((node) => node.port === port)!;
  } finally {
    await queues.close();
    await client.quit().catch(() => client.disconnect());
  }
}
