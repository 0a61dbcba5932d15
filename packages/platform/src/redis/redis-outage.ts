import { EventEmitter } from "node:events";
import { Cluster } from "ioredis";
import type { RedisClient } from "./redis.ts";
import type { Logger } from "../logging/logger.ts";
import { pingEveryMaster } from "./redis-ready.ts";
import { describeRedisTarget, parseRedisUrl } from "../config/redis-url.ts";

const CONNECTION_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);

/**
 * Answers Redis gives while a failover is under way: a cluster without a
 * master for a slot (CLUSTERDOWN, TRYAGAIN), a node still loading its data
 * (LOADING), a former master now a replica (READONLY), a replica cut off from
 * its master (MASTERDOWN), a master short of replicas (NOREPLICAS).
 */
const FAILOVER_REPLIES = /^(CLUSTERDOWN|TRYAGAIN|LOADING|READONLY|MASTERDOWN|NOREPLICAS)\b/;
const UNREACHABLE = /Connection is closed|connect ETIMEDOUT|Stream isn't writeable|All sentinels are unreachable|Failed to refresh slots cache|None of startup nodes is available/;

/** How often a cluster in an outage is asked whether every master answers again. */
const CLUSTER_PROBE_MS = 1000;

/** True for errors that say Redis is out of reach (or failing over) rather than that a command failed. */
export function isRedisConnectionError(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (code !== undefined && CONNECTION_ERRORS.has(code)) || UNREACHABLE.test(message ?? "") || FAILOVER_REPLIES.test(message ?? "");
}

/**
 * Every Redis connection of a process (ours and BullMQ's) reports each failed
 * reconnect, several times a second while Redis is away. An outage is one
 * warning when it starts and one line when Redis answers again; /readyz
 * carries the state in between. The end of an outage is emitted as
 * `recovered` (the schedule keeper re-creates what a Redis that came back
 * empty lost).
 *
 * One node or Sentinel: a connection's `ready` ends it. A cluster stays
 * `ready` while one shard fails over: a node that goes shows as `-node` (its
 * connection does not reconnect) and its errors as `node error`, and nothing
 * says when the shard is back. So on a cluster each `-node` asks whether
 * every master still answers (a replica may go without an outage), and an
 * outage ends once every master answers again (asked every second).
 */
export class RedisOutage extends EventEmitter<{ recovered: [] }> {
  private down = false;
  private cluster?: Cluster;
  private probing?: NodeJS.Timeout;
  private readonly onCluster: boolean;

  constructor(
    private readonly logger: Logger,
    private readonly redisUrl: string,
  ) {
    super();
    this.onCluster = parseRedisUrl(redisUrl).kind === "cluster";
  }

  /** Follows a connection: its errors start an outage, its `ready` ends one (on a cluster: every master answering again). */
  watch(redis: RedisClient): void {
    redis.on("error", (error) => this.explains(error) || this.logger.error("redis error", { error: error.message }));
    if (redis instanceof Cluster) {
      this.cluster ??= redis;
      redis.on("node error", (error: Error) => this.explains(error) || this.logger.error("redis node error", { error: error.message }));
      if (this.cluster === redis) redis.on("-node", () => this.probe(0));
    }
    // On a cluster one connection ready (a subscriber on a node that never went) says nothing of the shard that did.
    if (!this.onCluster) redis.on("ready", () => this.recovered());
  }

  /** Answers whether the error belongs to an outage (logged once, nothing more to say). */
  explains(error: unknown): boolean {
    if (!isRedisConnectionError(error)) return false;
    this.outage(error as Error);
    return true;
  }

  /** Stops asking a cluster whether it is back (the process is closing). */
  stop(): void {
    clearTimeout(this.probing);
    this.probing = undefined;
  }

  /** After `delayMs`, asks the cluster whether every master answers: no starts an outage (or goes on asking), yes ends one. */
  private probe(delayMs: number): void {
    const cluster = this.cluster;
    if (!cluster || this.probing || cluster.status === "end") return;
    this.probing = setTimeout(() => {
      pingEveryMaster(cluster, CLUSTER_PROBE_MS).then(
        () => {
          this.probing = undefined;
          this.recovered();
        },
        (error: unknown) => {
          this.probing = undefined;
          if (cluster.status !== "end") this.outage(error as Error);
        },
      );
    }, delayMs);
    this.probing.unref();
  }

  /** Starts an outage (one warning) or goes on with one; a cluster is then asked until it is back. */
  private outage(error: Error): void {
    if (!this.down) {
      this.down = true;
      this.logger.warn("redis unreachable: jobs wait and /readyz answers 503 until it is back", {
        redis: describeRedisTarget(parseRedisUrl(this.redisUrl)),
        error: error.message,
      });
    }
    this.probe(CLUSTER_PROBE_MS);
  }

  private recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.stop();
    this.logger.warn("redis reachable again");
    this.emit("recovered");
  }
}
