// A local Redis Cluster, 3 masters + 3 replicas, from the installed
// redis-server and redis-cli: for `pnpm services --redis-cluster`, the cluster
// tests and `bench:scale --cluster`. Nothing is downloaded; data lives in a
// temporary folder removed by stop().
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { binary } from "./children.ts";
import { freePorts } from "./free-ports.ts";
import { RedisServer, tlsArgs, type RedisTls } from "./redis-server.ts";

export interface RedisClusterOptions {
  masters?: number;
  replicasPerMaster?: number;
  /** cluster-node-timeout: how long a master may be silent before its replica takes over (Redis's default is 15 s). */
  nodeTimeoutMs?: number;
  /** requirepass and masterauth on every node; the URL carries it. */
  password?: string;
  /** TLS only, for clients, replication and the cluster bus; the URL is then rediss+cluster://. */
  tls?: RedisTls;
}

export interface LocalRedisCluster {
  /** REDIS_URL for it: redis+cluster:// with every node as a seed. */
  url: string;
  nodes: RedisServer[];
  dir: string;
  /** The nodes that hold slots now (a failover changes them). */
  masters(): Promise<RedisServer[]>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const START_ATTEMPTS = 3;

function clusterInfo(text: unknown): Record<string, string> {
  return Object.fromEntries(String(text ?? "").split("\r\n").filter(Boolean).map((line) => line.split(":") as [string, string]));
}

async function runRedisCli(args: string[]): Promise<void> {
  const cli = binary(["redis-cli", "/usr/bin/redis-cli"]);
  if (!cli) throw new Error("redis-cli is not installed here: install it (apt-get install redis-tools)");
  const child = spawn(cli, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`redis-cli --cluster create failed (${code}): ${output.trim().split("\n").slice(-3).join(" | ")}`);
}

/** Every node sees all slots served, and every replica has finished its first sync. */
async function settled(nodes: RedisServer[], masters: number): Promise<boolean> {
  let withSlots = 0;
  for (const node of nodes) {
    const info = clusterInfo(await node.ask("CLUSTER", "INFO"));
    if (info.cluster_state !== "ok" || info.cluster_slots_ok !== "16384") return false;
    const role = (await node.ask("ROLE")) as unknown[] | undefined;
    if (!role) return false;
    if (role[0] === "master") withSlots += 1;
    else if (role[3] !== "connected") return false;
  }
  return withSlots === masters;
}

async function startOnce(options: Required<Omit<RedisClusterOptions, "password" | "tls">> & { password?: string; tls?: RedisTls }): Promise<LocalRedisCluster> {
  const count = options.masters * (1 + options.replicasPerMaster);
  // A data port and a cluster-bus port per node: the bus port is set (cluster-port, Redis 7) rather than left at port + 10000, which may be taken or past 65535.
  const ports = await freePorts(count * 2);
  const dir = mkdtempSync(path.join(tmpdir(), "mw-redis-cluster-"));
  const auth = options.password === undefined ? [] : ["--requirepass", options.password, "--masterauth", options.password];
  const nodes = Array.from({ length: count }, (_, i) => {
    const port = ports[i]!;
    const nodeDir = path.join(dir, String(port));
    mkdirSync(nodeDir);
    const args = [
      ...(options.tls ? [...tlsArgs(port, options.tls), "--tls-cluster", "yes"] : ["--port", String(port)]),
      "--cluster-port", String(ports[count + i]!),
      "--bind", "127.0.0.1",
      "--dir", nodeDir,
      "--cluster-enabled", "yes",
      "--cluster-config-file", "nodes.conf",
      "--cluster-node-timeout", String(options.nodeTimeoutMs),
      "--save", "",
      "--appendonly", "no",
      // A replica's first sync starts at once instead of after Redis 7's 5 s wait for more replicas.
      "--repl-diskless-sync-delay", "0",
      ...auth,
    ];
    return new RedisServer(port, "node", args, path.join(dir, `${port}.log`), options.password, options.tls?.caFile);
  });
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(nodes.map((node) => node.start()));
    const cliAuth = options.password === undefined ? [] : ["-a", options.password, "--no-auth-warning"];
    const cliTls = options.tls ? ["--tls", "--cacert", options.tls.caFile] : [];
    await runRedisCli([...cliTls, "--cluster", "create", ...nodes.map((node) => `127.0.0.1:${node.port}`), "--cluster-replicas", String(options.replicasPerMaster), "--cluster-yes", ...cliAuth]);
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await settled(nodes, options.masters))) {
      if (Date.now() > deadline) throw new Error(`the local cluster did not settle within ${READY_TIMEOUT_MS / 1000} s; see the logs in ${dir}`);
      await sleep(100);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const userinfo = options.password === undefined ? "" : `:${encodeURIComponent(options.password)}@`;
  return {
    url: `${options.tls ? "rediss" : "redis"}+cluster://${userinfo}${nodes.map((node) => `127.0.0.1:${node.port}`).join(",")}`,
    nodes,
    dir,
    async masters() {
      const roles = await Promise.all(nodes.map(async (node) => (node.running ? ((await node.ask("ROLE")) as unknown[] | undefined)?.[0] : undefined)));
      return nodes.filter((_, i) => roles[i] === "master");
    },
    stop,
  };
}

/**
 * Starts the cluster on free ports and resolves once every slot is served and
 * every replica is in sync. A port taken between choosing and binding it
 * fails that attempt; the next one picks new ports.
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<LocalRedisCluster> {
  const settings = { masters: options.masters ?? 3, replicasPerMaster: options.replicasPerMaster ?? 1, nodeTimeoutMs: options.nodeTimeoutMs ?? 3000, password: options.password, tls: options.tls };
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(settings);
    } catch (error) {
      if (attempt >= START_ATTEMPTS || !/exited .* while starting/.test((error as Error).message)) throw error;
    }
  }
}
