import { Queue, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import { z } from "zod";
import { QUEUE_NAMES, type QueueName } from "../config.ts";
import { withTimeout } from "../time.ts";
import { REPORT_TYPES } from "../../reports/period.ts";

export { QUEUE_NAMES, type QueueName };

const DAY = 24 * 3600;

/**
 * Retries and backoff belong to BullMQ. Completed jobs stay a day, failed ones
 * a week (bounded in count), so operators can inspect and retry them in Bull Board.
 */
const BASE_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: "exponential", delay: 5_000 },
  removeOnComplete: { age: DAY, count: 10_000 },
  removeOnFail: { age: 7 * DAY, count: 10_000 },
};

export const QUEUE_JOB_OPTIONS: Record<QueueName, JobsOptions> = {
  orders: { ...BASE_OPTIONS, attempts: 8 },
  disputes: { ...BASE_OPTIONS, attempts: 8 },
  inventory: { ...BASE_OPTIONS, attempts: 3 },
  tracking: { ...BASE_OPTIONS, attempts: 3 },
  urgency: { ...BASE_OPTIONS, attempts: 5 },
  reports: { ...BASE_OPTIONS, attempts: 3 },
  notifications: { ...BASE_OPTIONS, attempts: 8, backoff: { type: "exponential", delay: 10_000 } },
  webhooks: { ...BASE_OPTIONS, attempts: 5 },
};

/** One report run: the row it fills; `description` is the report key (e.g. `order-intake-daily:2026-11-20`), shown in Bull Board. */
const reportJob = z.object({ report_id: z.number().int().positive(), description: z.string().min(1).max(191) });

const REPORT_JOBS = {
  reports: {
    /** Jobs are named after the report type; jobId `report.<report id>.<ms>`. */
    ...(Object.fromEntries(REPORT_TYPES.map((type) => [type, reportJob])) as Record<(typeof REPORT_TYPES)[number], typeof reportJob>),
    /** Daily: queue every report for the day before (UTC). */
    "reports-daily": z.object({}),
  },
};

/**
 * Payload schema of every job, by queue and job name. Producers validate
 * before adding; processors parse before working, so a malformed job fails
 * with a clear reason instead of a crash.
 */
export const JOB_PAYLOADS = {
  orders: {
    /** Push one order to the ERP; jobId `order-export.<order id>`. */
    "order-export": z.object({ order_id: z.number().int().positive() }),
    /** Periodic: queue an export for every order still `imported = 0`. */
    "order-sweep": z.object({}),
  },
  disputes: {
    /** Match one acquirer dispute (spec 1, 4.6); jobId `dispute.<event_id>` or `dispute.webhook.<row id>`. */
    "process-dispute": z.object({ webhook_id: z.number().int().positive() }),
    /** Periodic outbox sweep: queue the jobs of dispute webhooks and product refreshes that never reached Redis. */
    "webhook-sweep": z.object({}),
  },
  tracking: {
    /**
     * Post ERP tracking numbers to one site's storefront (spec 1, 4.7). Scheduled
     * every 30 minutes by the job scheduler `tracking-sync.<site id>`; a manual
     * trigger uses jobId `tracking-sync.<site id>.manual.<ms>`.
     */
    "tracking-sync": z.object({ site_id: z.number().int().positive() }),
  },
  inventory: {
    /**
     * ERP stock levels to one site's storefront (spec 1, 4.8). `product_ids`
     * (storefront product ids, from a product webhook) limits the run to those
     * products; absent means the full catalogue.
     */
    "inventory-sync": z.object({
      site_id: z.number().int().positive(),
      product_ids: z.array(z.string().min(1).max(64)).min(1).max(1000).optional(),
    }),
    /**
     * Hourly: queue a full `inventory-sync` of every site that syncs inventory;
     * jobId `inventory-sync.<site id>.scheduled.<period start ms>`.
     */
    "inventory-sweep": z.object({}),
    /** Remove catalogue SKUs the ERP no longer has (logs a dry-run count first). */
    "inventory-sku-cleanup": z.object({}),
    /** Nightly: delete item_history rows older than 3 days. */
    "item-history-cleanup": z.object({}),
  },
  notifications: {
    /** Alert e-mail to ALERT_EMAIL_TO (e.g. a dispute that matched several transactions). */
    "alert-email": z.object({ subject: z.string().min(1).max(200), text: z.string().min(1).max(100_000) }),
    /** GET a site's health-check URL after a successful run (spec 1, 6c). */
    "health-ping": z.object({ url: z.url(), site_id: z.number().int().optional() }),
    /** POST a message to a chat incoming-webhook URL. */
    "chat-message": z.object({ webhook_url: z.url(), text: z.string().min(1).max(40_000) }),
  },
  ...REPORT_JOBS,
} satisfies Partial<Record<QueueName, Record<string, z.ZodType>>>;

type Payloads = typeof JOB_PAYLOADS;
export type JobQueue = keyof Payloads;
export type JobName<Q extends JobQueue> = keyof Payloads[Q] & string;
export type JobPayload<Q extends JobQueue, N extends JobName<Q>> = z.output<Payloads[Q][N] & z.ZodType>;

export function payloadSchema(queue: string, name: string): z.ZodType | undefined {
  const jobs = (JOB_PAYLOADS as Record<string, Record<string, z.ZodType> | undefined>)[queue];
  return jobs && Object.hasOwn(jobs, name) ? jobs[name] : undefined;
}

/** BullMQ refuses ':' in custom job ids; ours are human keys like `order-export.42`. */
export function jobId(...parts: (string | number)[]): string {
  return parts.map((part) => String(part).replace(/:/g, "_")).join(".");
}

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
    private readonly connection: Redis,
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

  /** Validates the payload against its schema, then adds the job. */
  async add<Q extends JobQueue, N extends JobName<Q>>(
    queue: Q,
    name: N,
    data: JobPayload<Q, N>,
    options: JobsOptions = {},
  ) {
    const schema = payloadSchema(queue, name);
    if (!schema) throw new Error(`no payload schema for job ${queue}/${name}`);
    return withTimeout(this.get(queue).add(name, schema.parse(data), options), QUEUE_ADD_TIMEOUT_MS);
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((queue) => queue.close()));
    this.open.clear();
  }
}
