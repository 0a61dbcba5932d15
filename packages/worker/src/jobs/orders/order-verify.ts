import { verifyOrder, type orderVerifyJob } from "@mw/domains/orders";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

export async function orderVerify(_job: Job, payload: PayloadOf<typeof orderVerifyJob>, ctx: Pick<JobContext, "prisma" | "redis" | "config" | "log">) {
  return verifyOrder(ctx, payload.order_id);
}
