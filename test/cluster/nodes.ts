import { ask } from "../../scripts/services/redis-server.ts";

/** The Redis nodes' password in `pnpm test:cluster`: every connection (subscribers included) must carry it. */
export const NODE_PASSWORD = "cluster-Test-1";

/** The data nodes of a topology the global setup started, by the variable that lists their ports. */
export function nodesOf(variable: "TEST_REDIS_CLUSTER_PORTS" | "TEST_REDIS_SENTINEL_PORTS") {
  return async () =>
    (process.env[variable] ?? "")
      .split(",")
      .filter(Boolean)
      .map((port) => ({ ask: (command: string, ...args: string[]) => ask(Number(port), NODE_PASSWORD, command, ...args) }));
}
