import { AppError } from "@mw/platform/core";
import type { JobRun } from "@mw/platform/queues";
import { findSite, trackingSyncEnabled } from "../../sites/index.ts";
import type { TrackingOrderPushResult } from "../jobs.ts";
import { TrackingRun, type TrackingRunDeps } from "./run.ts";

/**
 * `tracking-order-push`: one order's ERP tracking numbers onto the storefront
 * again, by the tracking sync's own rules and records (so it posts nothing
 * twice, and runs safely beside the site's scheduled sync). The answer is
 * what the toolshed route shows; an order the storefront refuses fails the
 * job, once, with the storefront's reason.
 */
export async function pushOrderTracking(deps: TrackingRunDeps & Pick<JobRun, "log">, siteId: number, orderNumber: string): Promise<TrackingOrderPushResult> {
  const log = deps.log.child({ site_id: siteId, order_number: orderNumber });
  const site = await findSite(deps, siteId);
  if (!site) return { skipped: "site_not_found" };
  if (!trackingSyncEnabled(site)) return { skipped: "tracking_disabled" };
  const run = new TrackingRun(site, deps, log);
  if (!(await run.executeOrder(orderNumber))) {
    log.info("tracking re-push: the storefront has no such order");
    return { skipped: "order_not_found" };
  }
  const failure = run.failures[0];
  if (failure) throw AppError.permanent(`order ${failure.order_number}: ${failure.message}`, "tracking_incomplete");
  log.info("tracking re-push finished", run.counts);
  return { counts: run.counts };
}
