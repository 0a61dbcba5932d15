import { Queue, type JobsOptions } from "bullmq";
import type { RedisClient } from "../redis.ts";
import type { z } from "zod";
import { withTimeout } from "../time.ts";
import type { JobDefinition } from "./jobs.ts";
import { QUEUE_NAMES, type QueueName } from "./names.ts";
import { QUEUE_JOB_OPTIONS } from "./options.ts";

/**
 * How long adding a job may take. BullMQ waits for a Redis it cannot reach
 * without limit, which would hold an HTTP request open until its client gives
 * up; past this the add fails, the caller answers 503, and what it stored is
 * recovered by its sweep or the client's retry (job ids make a late add that
 * still lands harmless).
 */
export const QUEUE_ADD_TIMEOUT_MS = 5_000;

/** The platform's queues, opened lazily on one shared Redis connection. */
export class Queues {
  private readonly open = new Map<QueueName, Queue>();

  constructor(
    /** The Redis connection the queues share (also for small coordination keys beside them, like run-and-wait's lock). */
    readonly connection: RedisClient,
    readonly prefix: string,
  ) {}

  get(name: QueueName): Queue {
    let queue = this.open.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix, defaultJobOptions: QUEUE_JOB_OPTIONS[name] });
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

  /** Validates the payload against the job's schema, then adds it to the job's queue. */
  async add<Schema extends z.ZodType>(job: JobDefinition<Schema>, data: z.input<Schema>, options: JobsOptions = {}) {
    return withTimeout(this.get(job.queue).add(job.name, job.payload.parse(data), { ...job.options, ...options }), QUEUE_ADD_TIMEOUT_MS);
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((queue) => queue.close()));
    this.open.clear();
  }
}
