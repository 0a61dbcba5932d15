import { startRedisCluster } from "../../scripts/services/redis-cluster.ts";
import { startRedisSentinel } from "../../scripts/services/redis-sentinel.ts";
import setupTestDatabases from "../support/global-setup.ts";
import { NODE_PASSWORD } from "./nodes.ts";

// `pnpm test:cluster`: the test databases as for `pnpm test`, plus a local
// Redis Cluster (3 masters + 3 replicas) and a Sentinel group (master, replica,
// three sentinels) from the installed redis-server, shared by the files that
// do not stop nodes (those start topologies of their own).
export default async function setup(): Promise<() => Promise<void>> {
  const teardownDatabases = await setupTestDatabases();
  const [cluster, sentinel] = await Promise.all([startRedisCluster({ password: NODE_PASSWORD }), startRedisSentinel({ password: NODE_PASSWORD })]);
  process.env.TEST_REDIS_CLUSTER_URL = cluster.url;
  process.env.TEST_REDIS_SENTINEL_URL = sentinel.url;
  // The data nodes' ports, for commands a test sends to each (SCRIPT FLUSH).
  process.env.TEST_REDIS_CLUSTER_PORTS = cluster.nodes.map((node) => node.port).join(",");
  process.env.TEST_REDIS_SENTINEL_PORTS = sentinel.nodes.map((node) => node.port).join(",");
  console.log(`test:cluster started a Redis Cluster (${cluster.url.replace(NODE_PASSWORD, "***")}) and a Sentinel group (${sentinel.url.replace(NODE_PASSWORD, "***")})`);
  return async () => {
    await Promise.all([cluster.stop(), sentinel.stop()]);
    await teardownDatabases();
  };
}
