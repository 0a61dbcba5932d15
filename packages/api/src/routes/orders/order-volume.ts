import { orderVolumeTestsJob, type OrderVolumeResult } from "@mw/shared/orders";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { runScheduled, scheduledAsyncQuery, scheduledQueued } from "../../http/scheduled-run.ts";

const result = z.object({
  site: z.string().describe("the site's name"),
  status: z.enum(["SUCCESS", "FAILURE"]),
  message: z.string().describe("the outcome only; the order counts are in the job's result and log"),
});

/** Spec 2, 4.2 order-volume tests: the cron trigger (public POST). */
export function orderVolumeRoutes(api: ApiRouter, ctx: AppContext): void {
  api.route({
    method: "post",
    path: "/platform/v1/trigger-order-volume-tests",
    summary: "Test every active site's orders of its last order_volume_window_hours against its order_volume_min and half the same weekday's four-week average",
    tag: "scheduled",
    access: "public",
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
      200: { description: "One result per active site, by name", schema: z.object({ success: z.literal(true), results: z.array(result) }) },
      202: { description: "Still running after SCHEDULED_WAIT_SECONDS, or ?async=1", schema: scheduledQueued },
      500: { description: "sync_error: the run failed" },
    },
    handler: async (_input, req, res) => {
      const outcome = await runScheduled(ctx, req, res, orderVolumeTestsJob, {}, "trigger-order-volume-tests");
      if (!("state" in outcome)) return outcome;
      // Design 10.8: a public endpoint names the outcome, never a site's order counts.
      const { results } = outcome.result as { results: OrderVolumeResult[] };
      return { success: true as const, results: results.map(({ site, status, message }) => ({ site, status, message })) };
    },
  });
}
