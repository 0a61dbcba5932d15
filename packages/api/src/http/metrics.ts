import type { RequestHandler } from "express";
import client from "prom-client";
import { QUEUE_NAMES, renderJobDurations, type QueueName, type Queues } from "@mw/platform";
import { missingSchedules } from "@mw/domains/schedules";
import { countAbandonedWebhooks } from "@mw/domains/webhooks";
import type { AppContext } from "../context.ts";

export const JOB_STATES = ["waiting", "active", "delayed", "prioritized", "waiting-children", "completed", "failed"] as const;

/** Jobs by queue and state, as every scrape reads them (and the operators' console page shows them). */
export async function jobCountsByQueue(queues: Queues): Promise<{ queue: QueueName; counts: Record<(typeof JOB_STATES)[number], number> }[]> {
  const counts = await Promise.all(QUEUE_NAMES.map((name) => queues.get(name).getJobCounts(...JOB_STATES)));
  return QUEUE_NAMES.map((queue, i) => ({ queue, counts: Object.fromEntries(JOB_STATES.map((state) => [state, counts[i]?.[state] ?? 0])) as Record<(typeof JOB_STATES)[number], number> }));
}

/** Prometheus metrics of the API process plus the queue state every scrape reads from Redis. */
export class Metrics {
  readonly registry = new client.Registry();
  private readonly httpDuration: client.Histogram<"method" | "route" | "status">;

  constructor(private readonly ctx: Pick<AppContext, "config" | "prisma" | "queues" | "redis" | "replicaState">) {
    client.collectDefaultMetrics({ register: this.registry, prefix: "mw_" });
    this.httpDuration = new client.Histogram({
      name: "mw_http_request_duration_seconds",
      help: "HTTP request duration by method, route pattern and status.",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    const queues = ctx.queues;
    new client.Gauge({
      name: "mw_jobs",
      help: "Jobs by queue and state.",
      labelNames: ["queue", "state"],
      registers: [this.registry],
      async collect() {
        const byQueue = await jobCountsByQueue(queues);
        this.reset();
        for (const { queue, counts } of byQueue) {
          for (const state of JOB_STATES) this.set({ queue, state }, counts[state]);
        }
      },
    });
    this.abandonedWebhooks();
    this.missingSchedules();
    this.replicaLag();
  }

  /** Only with DATABASE_REPLICA_URL, once the lag has been measured (from the first lag-tolerant read or /readyz on). */
  private replicaLag(): void {
    const state = this.ctx.replicaState;
    if (!state) return;
    new client.Gauge({
      name: "mw_replica_lag_seconds",
      help: "Seconds the read replica is behind the primary (GTID positions, sampled every second); above REPLICA_MAX_LAG_SECONDS its reads use the primary.",
      registers: [this.registry],
      collect() {
        this.reset();
        if (state.lag !== undefined) this.set(state.lag);
      },
    });
  }

  private missingSchedules(): void {
    const queues = this.ctx.queues;
    new client.Gauge({
      name: "mw_schedules_missing",
      help: "Periodic jobs whose job scheduler is not in Redis, by queue (Redis lost its data and no worker has re-created them yet).",
      labelNames: ["queue"],
      registers: [this.registry],
      async collect() {
        const missing = await missingSchedules(queues);
        this.reset();
        for (const queue of QUEUE_NAMES) this.set({ queue }, missing.filter((job) => job.queue === queue).length);
      },
    });
  }

  private abandonedWebhooks(): void {
    const prisma = this.ctx.prisma;
    new client.Gauge({
      name: "mw_outbox_abandoned",
      help: "Stored webhooks still unprocessed past the inbox sweep's 24-hour window, by source: replay them.",
      labelNames: ["source"],
      registers: [this.registry],
      async collect() {
        const counts = await countAbandonedWebhooks({ prisma });
        for (const [source, count] of Object.entries(counts)) this.set({ source }, count);
      },
    });
  }

  /** Times every request; the route label is the matched pattern, never the raw URL (bounded cardinality). */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const end = this.httpDuration.startTimer();
      res.on("finish", () => {
        // Routers reset req.baseUrl on the way out, so mounted routers record their full pattern in res.locals.route.
        const route = (res.locals.route as string | undefined) ?? (req.route?.path ? String(req.route.path) : "unmatched");
        end({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    };
  }

  async render(): Promise<string> {
    const own = await this.registry.metrics();
    return own + (await renderJobDurations(this.ctx.redis, this.ctx.config.QUEUE_PREFIX));
  }
}
