// `pnpm services`: MariaDB and Redis for this project from the machine's own
// binaries (data in .data/), for as long as this runs; Ctrl-C stops them.
// `--redis-cluster` and `--redis-sentinel` also start a local Redis Cluster
// (3 masters + 3 replicas) and a Sentinel group (master, replica, three
// sentinels) on free ports, data in a temporary folder, and print their REDIS_URL.
import { parseArgs } from "node:util";
import { getConfigOrExit } from "@mw/platform";
import { LocalServicesError, startLocalServices } from "./services/local.ts";
import { startRedisCluster } from "./services/redis-cluster.ts";
import { startRedisSentinel } from "./services/redis-sentinel.ts";

let flags;
try {
  // "--" dropped: `pnpm services -- --redis-cluster` passes it through.
  flags = parseArgs({ args: process.argv.slice(2).filter((arg) => arg !== "--"), options: { "redis-cluster": { type: "boolean" }, "redis-sentinel": { type: "boolean" } } }).values;
} catch (error) {
  console.error(`${(error as Error).message}\nusage: pnpm services [--redis-cluster] [--redis-sentinel]`);
  process.exit(64); // EX_USAGE
}

const config = getConfigOrExit("cli");
const started: string[] = [];
const prepared: string[] = [];
const stops: (() => Promise<void>)[] = [];
const stopAll = async () => {
  for (const stop of stops.reverse()) await stop();
};
try {
  const services = await startLocalServices({ databaseUrl: config.DATABASE_URL, redisUrl: config.REDIS_URL });
  stops.push(services.stop);
  started.push(...services.started);
  prepared.push(...services.prepared);
  if (flags["redis-cluster"]) {
    const cluster = await startRedisCluster();
    stops.push(cluster.stop);
    started.push(`a Redis Cluster, 3 masters + 3 replicas, on 127.0.0.1 ports ${cluster.nodes.map((node) => node.port).join(",")} (data in ${cluster.dir})\n  REDIS_URL=${cluster.url}`);
  }
  if (flags["redis-sentinel"]) {
    const group = await startRedisSentinel();
    stops.push(group.stop);
    const [master, replica] = group.nodes;
    started.push(
      `a Redis Sentinel group: master 127.0.0.1:${master!.port}, replica 127.0.0.1:${replica!.port}, sentinels on ports ${group.sentinels.map((s) => s.port).join(",")} (data in ${group.dir})\n  REDIS_URL=${group.url}`,
    );
  }
} catch (error) {
  console.error((error as Error).message);
  await stopAll();
  process.exit(error instanceof LocalServicesError ? error.exitCode : 69); // EX_UNAVAILABLE
}
for (const line of prepared) console.log(line);
if (started.length === 0) {
  console.log("MariaDB and Redis already answer at DATABASE_URL and REDIS_URL (or point elsewhere): nothing to start.");
  process.exit(0);
}
for (const line of started) console.log(`started ${line}`);
console.log("Ctrl-C stops them.");
const stop = async () => {
  await stopAll();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
