import { QUEUE_NAMES, type QueueName } from "@mw/shared";
import type { Job } from "bullmq";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import type { ApiRouter } from "../http/api-router.ts";

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

/** Scripts' view of the queues (operators use Bull Board): jobs of one queue in one state, newest first. */
export function queueRoutes(api: ApiRouter, ctx: AppContext): void {
  api.route({
    method: "get",
    path: "/queue",
    summary: "List jobs of a queue by state",
    tag: "queue",
    access: "manage_middleware",
    query: z.object({
      queue: z.enum(QUEUE_NAMES),
      state: z.enum(STATES).default("waiting"),
      page: z.coerce.number().int().min(1).default(1),
      per_page: z.coerce.number().int().min(1).max(100).default(20),
    }),
    responses: {
      200: {
        description: "One page of jobs",
        schema: z.object({
          jobs: z.array(jobSummary),
          total: z.number().int(),
          page: z.number().int(),
          per_page: z.number().int(),
          total_pages: z.number().int(),
        }),
      },
    },
    handler: async ({ query }) => {
      const queue = ctx.queues.get(query.queue);
      const start = (query.page - 1) * query.per_page;
      const [total, jobs] = await Promise.all([
        queue.getJobCountByTypes(query.state),
        queue.getJobs([query.state], start, start + query.per_page - 1, false),
      ]);
      return {
        jobs: jobs.filter(Boolean).map((job) => summarise(job, query.queue, query.state)),
        total,
        page: query.page,
        per_page: query.per_page,
        total_pages: Math.ceil(total / query.per_page),
      };
    },
  });
}
