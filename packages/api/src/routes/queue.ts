import { QUEUE_NAMES, type QueueName } from "@mw/shared";
import type { Job } from "bullmq";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import type { ApiRouter } from "../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../http/pagination.ts";

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
