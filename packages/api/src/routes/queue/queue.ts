import { errors, QUEUE_NAMES, type QueueName } from "@mw/shared";
import type { Job } from "bullmq";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";

const STATES = ["waiting", "active", "delayed", "prioritized", "waiting-children", "completed", "failed"] as const;

const jobSummary = z.object({
  id: z.string(),
  queue: z.string(),
  name: z.string(),
  state: z.string(),
  attempts_made: z.number().int(),
  progress: z.unknown(),
  failed_reason: z.string().nullable(),
  created_at: z.string(),
  processed_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

function iso(ms: number | undefined): string | null {
  return ms ? new Date(ms).toISOString() : null;
}

function summarise(job: Job, queue: QueueName, state: string): z.infer<typeof jobSummary> {
  return {
    id: job.id ?? "",
    queue,
    name: job.name,
    state,
    attempts_made: job.attemptsMade,
    progress: job.progress,
    failed_reason: job.failedReason || null,
    created_at: new Date(job.timestamp).toISOString(),
    processed_at: iso(job.processedOn),
    finished_at: iso(job.finishedOn),
  };
}

/** Scripts' view of the queues (operators use Bull Board): list jobs by queue and state, process one now. */
export function queueRoutes(api: ApiRouter, ctx: AppContext): void {
  queueProcessRoute(api, ctx);
  api.route({
    method: "get",
    path: "/queue",
    summary: "List jobs of a queue by state",
    tag: "queue",
    access: "manage_middleware",
    query: pageQuery.extend({
      queue: z.enum(QUEUE_NAMES),
      state: z.enum(STATES).default("waiting"),
    }),
    responses: { 200: { description: "One page of jobs", schema: pageSchema("jobs", jobSummary) } },
    handler: async ({ query }) => {
      const queue = ctx.queues.get(query.queue);
      const { skip, take } = pageWindow(query);
      const [total, jobs] = await Promise.all([
        queue.getJobCountByTypes(query.state),
        queue.getJobs([query.state], skip, skip + take - 1, false),
      ]);
      const rows = jobs.filter(Boolean).map((job) => summarise(job, query.queue, query.state));
      return pageOf("jobs", rows, total, query);
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
async function findJob(ctx: AppContext, id: string): Promise<{ job: Job; queue: QueueName } | null> {
  for (const queue of QUEUE_NAMES) {
    const job = await ctx.queues.get(queue).getJob(id);
    if (job) return { job, queue };
  }
  return null;
}

function queueProcessRoute(api: ApiRouter, ctx: AppContext): void {
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
