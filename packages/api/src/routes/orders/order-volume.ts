import { orderVolumeTestsJob, type OrderVolumeResult } from "@mw/domains/orders";
import { z } from "zod";
import { cronAnswersInDetail } from "../../auth/cron-caller.ts";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { runScheduled, scheduledAsyncQuery, scheduledQueued } from "../../http/scheduled-run.ts";

const result = z.object({
  site: z.string().describe("the site's name"),
  status: z.enum(["SUCCESS", "FAILURE"]),
  message: z.string().describe("the outcome only; the order counts are in the job's result and log"),
});

/** Spec 2, 4.2 order-volume tests: the cron trigger (public POST unless CRON_TOKEN is set). */
export function orderVolumeRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "queues">): void {
  const inDetail = cronAnswersInDetail(ctx.config);
  api.route({
    method: "post",
    path: "/platform/v1/trigger-order-volume-tests",
    summary: "Test every active site's orders of its last order_volume_window_hours against its order_volume_min and half the same weekday's four-week average",
    tag: "scheduled",
    access: "cron",
    documentQuery: scheduledAsyncQuery,
    example: {
      response: {
        success: true,
        results: [
          { site: "Main shop", status: "SUCCESS", message: "Order volume is normal" },
          { site: "Outlet", status: "FAILURE", message: "Order volume fell below half of the usual level for this weekday" },
        ],
      },
    },
    responses: {
      200: {
        description: "One result per active site, by name, when CRON_TOKEN is set; without it the endpoint is public and `results` is empty (the job's result has them)",
        schema: z.object({ success: z.literal(true), results: z.array(result) }),
      },
      202: { description: "Still running after SCHEDULED_WAIT_SECONDS, or ?async=1", schema: scheduledQueued },
      500: { description: "sync_error: the run failed; why only with CRON_TOKEN set, else in the job's log" },
    },
    handler: async (_input, req, res) => {
      const outcome = await runScheduled(ctx, req, res, orderVolumeTestsJob, {}, "trigger-order-volume-tests", { showReason: inDetail });
      if (!("state" in outcome)) return outcome;
      // Anyone may call it without CRON_TOKEN: sites' names and how each fares stay in the job's result then.
      if (!inDetail) return { success: true as const, results: [] };
      // Design 10.8: the answer names the outcome, never a site's order counts.
      const { results } = outcome.result as { results: OrderVolumeResult[] };
      return { success: true as const, results: results.map(({ site, status, message }) => ({ site, status, message })) };
    },
  });
}
