import { AppError, type PayloadOf } from "@mw/platform";
import { findSite, trackingSyncEnabled } from "@mw/domains/sites";
import type { TrackingOrderPushResult, trackingOrderPushJob } from "@mw/domains/tracking";
import type { JobContext } from "../../runtime/processor.ts";
import { TrackingRun } from "./run.ts";

/**
 * `tracking-order-push`: one order's ERP tracking numbers onto the storefront
 * again, by the tracking sync's own rules and records (so it posts nothing
 * twice, and runs safely beside the site's scheduled sync). The answer is
 * what the toolshed route shows; an order the storefront refuses fails the
 * job, once, with the storefront's reason.
 */
export async function trackingOrderPush(_job: unknown, payload: PayloadOf<typeof trackingOrderPushJob>, ctx: JobContext): Promise<TrackingOrderPushResult> {
  const log = ctx.log.child({ site_id: payload.site_id, order_number: payload.order_number });
  const site = await findSite(ctx, payload.site_id);
  if (!site) return { skipped: "site_not_found" };
  if (!trackingSyncEnabled(site)) return { skipped: "tracking_disabled" };
  const run = new TrackingRun(site, ctx, log);
  if (!(await run.executeOrder(payload.order_number))) {
    log.info("tracking re-push: the storefront has no such order");
    return { skipped: "order_not_found" };
  }
  const failure = run.failures[0];
  if (failure) throw AppError.permanent(`order ${failure.order_number}: ${failure.message}`, "tracking_incomplete");
  log.info("tracking re-push finished", run.counts);
  return { counts: run.counts };
}
