import type { LocalRedisCluster } from "../../scripts/services/redis-cluster.ts";
import type { RedisServer } from "../../scripts/services/redis-server.ts";
import { until } from "../support/wait.ts";

// What a test that kills nodes of a local cluster needs to know about it at
// the moment it starts, read from the nodes themselves: earlier kills leave a
// different node master of a shard (a killed master comes back as a replica),
// and a client's slot cache may still name the old one.

/** One master and every replica following it now. */
export interface Shard {
  master: RedisServer;
  replicas: RedisServer[];
}

/** ROLE of a master: ["master", offset, [[host, port, offset], ...]]; of a replica: ["slave", host, port, link state, offset]. */
type Role = ["master", number, [string, string, string][]] | ["slave", string, number, string, number];

function stateOf(info: unknown): Record<string, string> {
  return Object.fromEntries(String(info ?? "").split("\r\n").filter((line) => line.includes(":")).map((line) => line.split(":") as [string, string]));
}

/** Each slot range's master port, as `node` sees it ("start-end:port" sorted), or undefined if it does not answer. */
async function slotMap(node: RedisServer): Promise<string | undefined> {
  const slots = (await node.ask("CLUSTER", "SLOTS")) as [number, number, [string, number, ...unknown[]], ...unknown[]][] | undefined;
  return slots?.map(([start, end, [, port]]) => `${start}-${end}:${port}`).sort().join(" ");
}

/**
 * The cluster is whole and every node agrees on it: every node runs, sees
 * every slot served, names the same master for each slot; there are
 * `masters` masters, each replica's link to its master is up and its master
 * lists it. Then nothing of an earlier failover is still under way.
 */
export async function settledCluster(cluster: LocalRedisCluster, masters = 3): Promise<boolean> {
  if (!cluster.nodes.every((node) => node.running)) return false;
  const maps = new Set<string | undefined>();
  const roles = new Map<RedisServer, Role>();
  for (const node of cluster.nodes) {
    const info = stateOf(await node.ask("CLUSTER", "INFO"));
    if (info.cluster_state !== "ok" || info.cluster_slots_ok !== "16384") return false;
    maps.add(await slotMap(node));
    const role = (await node.ask("ROLE")) as Role | undefined;
    if (!role) return false;
    roles.set(node, role);
  }
  if (maps.size !== 1 || maps.has(undefined)) return false;
  const owners = new Set([...maps][0]!.split(" ").map((range) => Number(range.split(":")[1])));
  const masterNodes = cluster.nodes.filter((node) => roles.get(node)![0] === "master");
  if (masterNodes.length !== masters || !masterNodes.every((node) => owners.has(node.port))) return false;
  for (const [node, role] of roles) {
    if (role[0] !== "slave") continue;
    if (role[3] !== "connected") return false;
    const master = masterNodes.find((candidate) => candidate.port === role[2]);
    const listed = master && (roles.get(master) as Extract<Role, ["master", ...unknown[]]>)[2].some(([, port]) => Number(port) === node.port);
    if (!listed) return false;
  }
  return true;
}

/** Waits until the cluster is whole (settledCluster). */
export async function untilSettled(cluster: LocalRedisCluster, timeoutMs: number): Promise<void> {
  await until(() => settledCluster(cluster), () => `the cluster to settle (every node up, agreeing on the masters, replicas in sync); logs in ${cluster.dir}`, timeoutMs);
}

/** What `node` counts the cluster's state as ("ok", "fail"), or undefined if it does not answer. */
export async function clusterState(node: RedisServer): Promise<string | undefined> {
  return stateOf(await node.ask("CLUSTER", "INFO")).cluster_state;
}

/** The shard that serves `key` now: its master and every replica of it, read from the nodes once the cluster has settled. */
export async function shardOf(cluster: LocalRedisCluster, key: string, timeoutMs: number): Promise<Shard> {
  await untilSettled(cluster, timeoutMs);
  const [any] = cluster.nodes;
  const slot = Number(await any!.ask("CLUSTER", "KEYSLOT", key));
  const range = (await slotMap(any!))!.split(" ").find((entry) => {
    const [start, end] = entry.split(":")[0]!.split("-").map(Number);
    return start! <= slot && slot <= end!;
  })!;
  const master = cluster.nodes.find((node) => node.port === Number(range.split(":")[1]))!;
  const replicas: RedisServer[] = [];
  for (const node of cluster.nodes) {
    const role = (await node.ask("ROLE")) as Role | undefined;
    if (role?.[0] === "slave" && role[2] === master.port) replicas.push(node);
  }
  return { master, replicas };
}
