import { redisBehaviour } from "./behaviour.ts";
import { nodesOf } from "./nodes.ts";

// The Redis-touching behaviour on the Sentinel group of the global setup (master, replica, three sentinels).
redisBehaviour("sentinel", process.env.TEST_REDIS_SENTINEL_URL!, nodesOf("TEST_REDIS_SENTINEL_PORTS"));
