import { alertOrderVolumes, testOrderVolumes, type orderVolumeDailyJob, type orderVolumeTestsJob } from "@mw/domains/orders";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

export async function orderVolumeTests(_job: Job, _payload: PayloadOf<typeof orderVolumeTestsJob>, ctx: Pick<JobContext, "replica" | "log">) {
  return testOrderVolumes(ctx);
}

export async function orderVolumeDaily(_job: Job, _payload: PayloadOf<typeof orderVolumeDailyJob>, ctx: Pick<JobContext, "replica" | "queues" | "log">) {
  return alertOrderVolumes(ctx);
}
