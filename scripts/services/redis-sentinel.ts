// A local Sentinel group from the installed redis-server: one master, one
// replica and three sentinels (quorum 2), for `pnpm services --redis-sentinel`,
// the Sentinel tests and chaos runs. Data and the sentinels' own config files
// (which they rewrite) live in a temporary folder removed by stop().
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePorts } from "./free-ports.ts";
import { RedisServer, tlsArgs, type RedisTls } from "./redis-server.ts";

export interface RedisSentinelOptions {
  masterName?: string;
  /** down-after-milliseconds: how long the master may be silent before the sentinels fail over. */
  downAfterMs?: number;
  /** requirepass and masterauth on the master and the replica; the URL carries it. */
  password?: string;
  /** requirepass on the sentinels (REDIS_SENTINEL_PASSWORD for clients). */
  sentinelPassword?: string;
  /** TLS only, for clients, replication and among the sentinels; the URL is then rediss+sentinel://. */
  tls?: RedisTls;
}

export interface LocalRedisSentinel {
  /** REDIS_URL for it: redis+sentinel:// naming the three sentinels and the master. */
  url: string;
  masterName: string;
  /** The master and the replica as started (a failover swaps their roles). */
  nodes: RedisServer[];
  sentinels: RedisServer[];
  dir: string;
  /** The node the sentinels name as master now. */
  master(): Promise<RedisServer | undefined>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const START_ATTEMPTS = 3;
const QUORUM = 2;

function fields(reply: unknown): Record<string, string> {
  const list = Array.isArray(reply) ? (reply as string[]) : [];
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) out[list[i]!] = list[i + 1]!;
  return out;
}

function sentinelConfig(o: { port: number; dir: string; masterName: string; masterPort: number; downAfterMs: number; password?: string; sentinelPassword?: string; tls?: RedisTls }): string {
  return [
    ...(o.tls
      ? ["port 0", `tls-port ${o.port}`, `tls-cert-file ${o.tls.certFile}`, `tls-key-file ${o.tls.keyFile}`, `tls-ca-cert-file ${o.tls.caFile}`, "tls-auth-clients no", "tls-replication yes"]
      : [`port ${o.port}`]),
    "bind 127.0.0.1",
    `dir ${o.dir}`,
    `sentinel monitor ${o.masterName} 127.0.0.1 ${o.masterPort} ${QUORUM}`,
    `sentinel down-after-milliseconds ${o.masterName} ${o.downAfterMs}`,
    `sentinel failover-timeout ${o.masterName} 10000`,
    `sentinel parallel-syncs ${o.masterName} 1`,
    ...(o.password === undefined ? [] : [`sentinel auth-pass ${o.masterName} ${o.password}`]),
    // Sentinels talk to each other too: with a password of their own, they need it for that.
    ...(o.sentinelPassword === undefined ? [] : [`requirepass ${o.sentinelPassword}`, `sentinel sentinel-pass ${o.sentinelPassword}`]),
    "",
  ].join("\n");
}

/** Each sentinel sees the master, its replica and the two other sentinels: a failover can be agreed on. */
async function settled(sentinels: RedisServer[], masterName: string): Promise<boolean> {
  for (const sentinel of sentinels) {
    const master = fields(await sentinel.ask("SENTINEL", "MASTER", masterName));
    if (master.flags !== "master" || master["num-slaves"] !== "1" || master["num-other-sentinels"] !== String(sentinels.length - 1)) return false;
  }
  return true;
}

async function startOnce(options: Required<Omit<RedisSentinelOptions, "password" | "sentinelPassword" | "tls">> & RedisSentinelOptions): Promise<LocalRedisSentinel> {
  const { masterName, downAfterMs, password, sentinelPassword, tls } = options;
  const [masterPort, replicaPort, ...sentinelPorts] = await freePorts(5);
  const dir = mkdtempSync(path.join(tmpdir(), "mw-redis-sentinel-"));
  const auth = password === undefined ? [] : ["--requirepass", password, "--masterauth", password];
  const node = (port: number, extra: string[]) => {
    const nodeDir = path.join(dir, String(port));
    mkdirSync(nodeDir);
    return new RedisServer(port, "node", [...(tls ? tlsArgs(port, tls) : ["--port", String(port)]), "--bind", "127.0.0.1", "--dir", nodeDir, "--save", "", "--appendonly", "no", "--repl-diskless-sync-delay", "0", ...auth, ...extra], path.join(dir, `${port}.log`), password, tls?.caFile);
  };
  const nodes = [node(masterPort!, []), node(replicaPort!, ["--replicaof", "127.0.0.1", String(masterPort)])];
  const sentinels = sentinelPorts.map((port) => {
    const config = path.join(dir, `sentinel-${port}.conf`);
    writeFileSync(config, sentinelConfig({ port, dir, masterName, masterPort: masterPort!, downAfterMs, password, sentinelPassword, tls }));
    return new RedisServer(port, "sentinel", [config, "--sentinel"], path.join(dir, `sentinel-${port}.log`), sentinelPassword, tls?.caFile);
  });
  const stop = async () => {
    // Sentinels first, so they do not fail over while the nodes go.
    await Promise.all(sentinels.map((sentinel) => sentinel.stop()));
    await Promise.all(nodes.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(nodes.map((server) => server.start()));
    const deadline = Date.now() + READY_TIMEOUT_MS;
    // A sentinel learns of replicas from the master's INFO, read on connecting and then every 10 s:
    // started before the replica is in, it would take that long to see it.
    while (((await nodes[1]!.ask("ROLE")) as unknown[] | undefined)?.[3] !== "connected") {
      if (Date.now() > deadline) throw new Error(`the local replica did not sync within ${READY_TIMEOUT_MS / 1000} s; see the logs in ${dir}`);
      await sleep(100);
    }
    await Promise.all(sentinels.map((sentinel) => sentinel.start()));
    // They find each other from hello messages sent every 2 s.
    while (!(await settled(sentinels, masterName))) {
      if (Date.now() > deadline) throw new Error(`the local Sentinel group did not settle within ${READY_TIMEOUT_MS / 1000} s; see the logs in ${dir}`);
      await sleep(200);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const userinfo = password === undefined ? "" : `:${encodeURIComponent(password)}@`;
  return {
    url: `${tls ? "rediss" : "redis"}+sentinel://${userinfo}${sentinels.map((s) => `127.0.0.1:${s.port}`).join(",")}/${masterName}`,
    masterName,
    nodes,
    sentinels,
    dir,
    async master() {
      for (const sentinel of sentinels) {
        if (!sentinel.running) continue;
        const address = (await sentinel.ask("SENTINEL", "GET-MASTER-ADDR-BY-NAME", masterName)) as string[] | undefined;
        if (address) return nodes.find((server) => server.port === Number(address[1]));
      }
      return undefined;
    },
    stop,
  };
}

/**
 * Starts the group on free ports and resolves once every sentinel knows the
 * master, the replica and the other sentinels. A port taken between choosing
 * and binding it fails that attempt; the next one picks new ports.
 */
export async function startRedisSentinel(options: RedisSentinelOptions = {}): Promise<LocalRedisSentinel> {
  const settings = { ...options, masterName: options.masterName ?? "mw", downAfterMs: options.downAfterMs ?? 2000 };
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(settings);
    } catch (error) {
      if (attempt >= START_ATTEMPTS || !/exited .* while starting/.test((error as Error).message)) throw error;
    }
  }
}
