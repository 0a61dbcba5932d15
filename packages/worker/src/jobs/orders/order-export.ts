import { exportOrder, sweepOrderExports, type orderExportJob, type orderSweepJob } from "@mw/domains/orders";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import { endsJob } from "../../runtime/attempts.ts";
import type { JobContext } from "../../runtime/processor.ts";

export async function orderExport(job: Job, payload: PayloadOf<typeof orderExportJob>, ctx: Pick<JobContext, "prisma" | "redis" | "queues" | "config" | "log">) {
  return exportOrder(ctx, payload.order_id, (error) => endsJob(job, error));
}

export async function orderSweep(_job: Job, _payload: PayloadOf<typeof orderSweepJob>, ctx: Pick<JobContext, "prisma" | "queues" | "config" | "log">) {
  return sweepOrderExports(ctx);
}
