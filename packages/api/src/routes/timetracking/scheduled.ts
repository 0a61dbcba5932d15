import { milestonesJob, timeSyncJob } from "@mw/domains/timetracking";
import { z } from "zod";
import { cronAnswersInDetail } from "../../auth/cron-caller.ts";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { runScheduled, scheduledAsyncQuery, scheduledQueued } from "../../http/scheduled-run.ts";

/** Spec 2, 4.2: the time-tracking cron triggers (public POSTs unless CRON_TOKEN is set). */
export function scheduledTimeRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "queues">): void {
  const showReason = cronAnswersInDetail(ctx.config);
  api.route({
    method: "post",
    path: "/platform/v1/time_sync",
    summary: "Sync Harvest clients, projects, tasks and time entries into the mirror (10 s between provider calls)",
    tag: "scheduled",
    access: "cron",
    documentQuery: scheduledAsyncQuery,
    responses: {
      200: { description: "The counts synced", schema: z.object({ success: z.literal(true), message: z.string(), data: z.object({ clients: z.number().int(), projects: z.number().int(), tasks: z.number().int(), time_entries: z.number().int() }) }) },
      202: { description: "Still running after SCHEDULED_WAIT_SECONDS, or ?async=1", schema: scheduledQueued },
      500: { description: "sync_error: the sync failed; why (e.g. the sync credentials are not set) only with CRON_TOKEN set, else in the job's log" },
    },
    example: { response: { success: true, message: "Synced 12 clients, 40 projects, 6 tasks and 2318 time entries.", data: { clients: 12, projects: 40, tasks: 6, time_entries: 2318 } } },
    handler: async (_input, req, res) => {
      const outcome = await runScheduled(ctx, req, res, timeSyncJob, {}, "time_sync", { showReason });
      if (!("state" in outcome)) return outcome;
      const counts = outcome.result as { clients: number; projects: number; tasks: number; time_entries: number };
      return { success: true as const, message: `Synced ${counts.clients} clients, ${counts.projects} projects, ${counts.tasks} tasks and ${counts.time_entries} time entries.`, data: { clients: counts.clients, projects: counts.projects, tasks: counts.tasks, time_entries: counts.time_entries } };
    },
  });

  for (const [path, scope, summary, alertsSent] of [
    ["/platform/v1/update_milestones", "projects", "Alert newly reached project budget milestones (50, 75, 90, 100 %) to the chat webhook", 2],
    ["/platform/v1/update_milestones_tasks", "tasks", "Alert newly reached task budget milestones to the chat webhook", 0],
  ] as const) {
    api.route({
      method: "post",
      path,
      summary,
      tag: "scheduled",
      access: "cron",
      documentQuery: scheduledAsyncQuery,
      responses: {
        200: { description: "How many alerts this run sent", schema: z.object({ success: z.literal(true), alerts_sent: z.number().int() }) },
        202: { description: "Still running, or ?async=1", schema: scheduledQueued },
        500: { description: "sync_error: the run failed; why only with CRON_TOKEN set, else in the job's log" },
      },
      example: { response: { success: true, alerts_sent: alertsSent } },
      handler: async (_input, req, res) => {
        const outcome = await runScheduled(ctx, req, res, milestonesJob, { scope }, path.slice("/platform/v1/".length), { showReason });
        if (!("state" in outcome)) return outcome;
        return { success: true as const, alerts_sent: (outcome.result as { alerts_sent: number }).alerts_sent };
      },
    });
  }
}
