import { pushOrderTracking, type trackingOrderPushJob } from "@mw/domains/tracking";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** `tracking-order-push`: one order's ERP tracking numbers onto the storefront again. */
export async function trackingOrderPush(_job: Job, payload: PayloadOf<typeof trackingOrderPushJob>, { prisma, config, redis, log, progress }: Pick<JobContext, "prisma" | "config" | "redis" | "log" | "progress">) {
  return pushOrderTracking({ prisma, config, redis, log, progress }, payload.site_id, payload.order_number);
}
