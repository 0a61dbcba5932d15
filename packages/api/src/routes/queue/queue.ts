import { errors, formatDateTime, QUEUE_NAMES, type QueueName } from "@mw/platform";
import type { Job, JobType } from "bullmq";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";
import { describeJob, jobType, siteNamesOf, siteOf } from "../console/job-description.ts";

/** Spec 1, 3.1 job states, and the BullMQ states each covers (`processing` is the claimed state the spec leaves unnamed). */
const STATUSES = {
  pending: ["waiting", "prioritized", "delayed", "waiting-children"],
  processing: ["active"],
  completed: ["completed"],
  failed: ["failed"],
} as const satisfies Record<string, readonly JobType[]>;
type Status = keyof typeof STATUSES;

const jobSummary = z.object({
  id: z.string(),
  queue: z.string(),
  job_type: z.string().describe("spec 1, 2.7: process_dispute, inventory_sync, inventory_sku_cleanup, order_export, report types, ..."),
  status: z.enum(Object.keys(STATUSES) as [Status, ...Status[]]),
  priority: z.number().int().describe("0 = normal; a lower positive number runs sooner"),
  site_id: z.number().int().nullable(),
  description: z.string().describe("the business object: order number, dispute case, site, report key"),
  attempts_made: z.number().int(),
  progress: z.unknown(),
  failed_reason: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  locked_by: z.string().nullable().describe("the worker (host:pid) holding a processing job"),
});

function summarise(job: Job, queue: QueueName, status: Status, siteNames: Map<number, string>): z.infer<typeof jobSummary> {
  return {
    id: job.id ?? "",
    queue,
    job_type: jobType(job.name),
    status,
    priority: job.priority ?? 0,
    site_id: siteOf(job),
    description: describeJob(job, siteNames),
    attempts_made: job.attemptsMade,
    progress: job.progress,
    failed_reason: job.failedReason || null,
    created_at: formatDateTime(new Date(job.timestamp))!,
    started_at: job.processedOn ? formatDateTime(new Date(job.processedOn)) : null,
    completed_at: job.finishedOn ? formatDateTime(new Date(job.finishedOn)) : null,
    // Spec 1, 3.1: lock metadata is cleared once the job completes or fails.
    locked_by: status === "processing" ? (job.processedBy ?? null) : null,
  };
}

/** Scripts' view of the queues (operators use Bull Board): list jobs by queue and status, process one now. */
export function queueRoutes(api: ApiRouter, ctx: Pick<AppContext, "logger" | "prisma" | "queues">): void {
  queueProcessRoute(api, ctx);
  api.route({
    method: "get",
    path: "/queue",
    summary: "List jobs of a queue by status (pending, processing, completed, failed), oldest first for pending",
    tag: "queue",
    access: "manage_middleware",
    query: pageQuery.extend({
      queue: z.enum(QUEUE_NAMES),
      status: z.enum(Object.keys(STATUSES) as [Status, ...Status[]]).default("pending"),
    }),
    responses: { 200: { description: "One page of jobs", schema: pageSchema("jobs", jobSummary) } },
    example: {
      response: {
        jobs: [
          {
            id: "order-export.812",
            queue: "orders",
            job_type: "order_export",
            status: "failed",
            priority: 0,
            site_id: 1,
            description: "Export order 100045 of site 1 (Main shop) to the ERP",
            attempts_made: 8,
            progress: 0,
            failed_reason: "ERP answered HTTP 503: The service is temporarily unavailable. Please try again later.",
            created_at: "2026-11-20 10:15:00",
            started_at: "2026-11-20 10:24:40",
            completed_at: "2026-11-20 10:24:41",
            locked_by: null,
          },
        ],
        total: 1,
        page: 1,
        per_page: 20,
        total_pages: 1,
      },
    },
    handler: async ({ query }) => {
      const queue = ctx.queues.get(query.queue);
      const { skip, take } = pageWindow(query);
      const types = [...STATUSES[query.status]];
      const [total, jobs] = await Promise.all([queue.getJobCountByTypes(...types), queue.getJobs(types, skip, skip + take - 1, query.status === "pending")]);
      const present = jobs.filter(Boolean);
      const siteNames = await siteNamesOf(ctx, present);
      return pageOf("jobs", present.map((job) => summarise(job, query.queue, query.status, siteNames)), total, query);
    },
  });
}

type Processable = "failed" | "delayed" | "waiting" | "prioritized";

/** What "process now" means for each state a job can be taken from. */
const PROCESS: Record<Processable, (job: Job) => Promise<void>> = {
  failed: (job) => job.retry("failed"),
  delayed: (job) => job.promote(),
  // Already waiting: move it to the head of the line, so the next free worker takes it.
  waiting: (job) => job.changePriority({ priority: 0, lifo: true }),
  prioritized: (job) => job.changePriority({ priority: 0, lifo: true }),
};

/** Finds a job by id in whichever queue holds it (ids are meaningful keys like `dispute.acquirer_case_77`). */
async function findJob(ctx: Pick<AppContext, "queues">, id: string): Promise<{ job: Job; queue: QueueName } | null> {
  for (const queue of QUEUE_NAMES) {
    const job = await ctx.queues.get(queue).getJob(id);
    if (job) return { job, queue };
  }
  return null;
}

function queueProcessRoute(api: ApiRouter, ctx: Pick<AppContext, "logger" | "queues">): void {
  api.route({
    method: "post",
    path: "/queue/:id/process",
    summary: "Process one job now: retry a failed job, promote a delayed one, put a waiting one first",
    tag: "queue",
    access: "manage_middleware",
    params: z.object({ id: z.string().min(1).max(255) }),
    responses: {
      200: {
        description: "The job and the state it is in now",
        schema: z.object({ success: z.literal(true), job: z.object({ id: z.string(), queue: z.string(), state: z.string() }) }),
      },
      404: { description: "No job with that id in any queue" },
      409: { description: "The job is active or completed and cannot be processed again (disputes: use /disputes/replay)" },
    },
    example: { response: { success: true, job: { id: "order-export.812", queue: "orders", state: "waiting" } } },
    handler: async ({ params }) => {
      const found = await findJob(ctx, params.id);
      if (!found) throw errors.notFound(`No job with id ${params.id}.`);
      const state = await found.job.getState();
      if (!(state in PROCESS)) {
        throw errors.conflict("job_not_processable", `Job ${params.id} is ${state} and cannot be processed now.`, { state });
      }
      await PROCESS[state as Processable](found.job);
      const now = await found.job.getState();
      ctx.logger.info("job processed on request", { job_id: params.id, queue: found.queue, from: state, to: now });
      return { success: true as const, job: { id: params.id, queue: found.queue, state: now } };
    },
  });
}
