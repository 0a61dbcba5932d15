import { Queue, type JobsOptions } from "bullmq";
import { Cluster } from "ioredis";
import type { RedisClient } from "../redis/redis.ts";
import type { z } from "zod";
import { withTimeout } from "../core/time.ts";
import type { JobDefinition } from "./jobs.ts";
import { QUEUE_NAMES, type QueueName } from "../config/queue-names.ts";
import { DEFAULT_JOB_RETENTION, queueJobOptions, type JobRetention } from "./options.ts";
import { ReplicaAck, type ReplicaAckOptions } from "./replica-ack.ts";

/**
 * How long adding a job may take. BullMQ waits for a Redis it cannot reach
 * without limit, which would hold an HTTP request open until its client gives
 * up; past this the add fails, the caller answers 503, and what it stored is
 * recovered by its sweep or the client's retry (job ids make a late add that
 * still lands harmless).
 */
export const QUEUE_ADD_TIMEOUT_MS = 5_000;

/** Whether a key holds a Redis Cluster hash tag: the first "{" with a "}" after it and something in between. */
function hasHashTag(key: string): boolean {
  const open = key.indexOf("{");
  const close = open === -1 ? -1 : key.indexOf("}", open + 1);
  return close > open + 1;
}

/**
 * The BullMQ prefix of one queue. BullMQ names a queue's keys
 * `<prefix>:<queue>:<suffix>` and runs scripts over several of them (job hash,
 * wait list, events stream, the job's `:logs`), which a cluster refuses unless
 * they share a slot. On a cluster each queue gets its own hash tag,
 * `{<prefix>:<queue>}`, so a queue's keys share one slot while the queues
 * spread over the masters. One node (or Sentinel's master) keeps the plain
 * prefix: the keys of an existing deployment stay where its jobs are. A
 * QUEUE_PREFIX that holds a hash tag of its own is taken as it is.
 */
export function queueKeyPrefix(prefix: string, queue: string, cluster: boolean): string {
  return cluster && !hasHashTag(prefix) ? `{${prefix}:${queue}}` : prefix;
}

export interface QueuesOptions {
  /** Replicas each added job must reach before `add` resolves (REDIS_WAIT_REPLICAS); none unless given. */
  replication?: ReplicaAckOptions;
  /** How long and how many finished jobs each queue keeps, and its event stream's length (the RETENTION_*_JOBS_* and RETENTION_QUEUE_EVENTS_MAX settings); their defaults unless given. */
  jobRetention?: JobRetention;
  /**
   * Awaited once before the first job is added, by a process that did not check the prefix's
   * database at start (a `pnpm cli` command opens the queues only when it uses them).
   */
  beforeFirstAdd?: () => Promise<void>;
}

/** The platform's queues, opened lazily on one shared Redis connection. */
export class Queues {
  private readonly open = new Map<QueueName, Queue>();
  private readonly replicaAck: ReplicaAck;
  /** How long and how many finished jobs each queue keeps, for a caller whose jobs go sooner (run-and-wait). */
  readonly jobRetention: JobRetention;
  /** Every job's defaults by queue: Queue.add, and the job schedulers' templates, start from them. */
  private readonly jobOptions: Record<QueueName, JobsOptions>;
  private readonly beforeFirstAdd: (() => Promise<void>) | undefined;
  private paired: Promise<void> | undefined;

  constructor(
    /** The Redis connection the queues share (also for small coordination keys beside them, like run-and-wait's lock). */
    readonly connection: RedisClient,
    readonly prefix: string,
    options: QueuesOptions = {},
  ) {
    this.replicaAck = new ReplicaAck(connection, options.replication ?? { replicas: 0, timeoutMs: 0 });
    this.jobRetention = options.jobRetention ?? DEFAULT_JOB_RETENTION;
    this.jobOptions = queueJobOptions(this.jobRetention);
    this.beforeFirstAdd = options.beforeFirstAdd;
  }

  /** The BullMQ prefix of `name`'s keys (queueKeyPrefix): every Queue and Worker of that queue must use it. */
  prefixOf(name: QueueName): string {
    return queueKeyPrefix(this.prefix, name, this.connection instanceof Cluster);
  }

  get(name: QueueName): Queue {
    let queue = this.open.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: this.connection,
        prefix: this.prefixOf(name),
        defaultJobOptions: this.jobOptions[name],
        // Kept in the queue's meta key, where every worker's scripts read the bound when they add an event.
        streams: { events: { maxLen: this.jobRetention.RETENTION_QUEUE_EVENTS_MAX } },
      });
      // A connection failure is re-emitted by every queue; the connection's owner logs it once,
      // and without a listener BullMQ would print each copy to the console.
      queue.on("error", () => {});
      this.open.set(name, queue);
    }
    return queue;
  }

  all(): Queue[] {
    return QUEUE_NAMES.map((name) => this.get(name));
  }

  /**
   * Validates the payload against the job's schema, then adds it to the job's
   * queue; with replication asked for, resolves only once replicas hold it
   * (a failover after the caller answered its client must not lose the job).
   */
  async add<Schema extends z.ZodType>(job: JobDefinition<Schema>, data: z.input<Schema>, options: JobsOptions = {}) {
    if (this.beforeFirstAdd) await (this.paired ??= this.beforeFirstAdd());
    const queue = this.get(job.queue);
    const payload = job.payload.parse(data);
    const added = async () => {
      const added = await queue.add(job.name, payload, { ...job.options, ...options });
      await this.replicaAck.confirm(queue.toKey("meta"));
      return added;
    };
    return withTimeout(added(), QUEUE_ADD_TIMEOUT_MS);
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((queue) => queue.close()));
    this.open.clear();
  }
}
