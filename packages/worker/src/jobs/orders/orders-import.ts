import { importSiteOrders, type ordersImportJob } from "@mw/domains/orders";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

export async function ordersImport(job: Job, payload: PayloadOf<typeof ordersImportJob>, ctx: Pick<JobContext, "prisma" | "sql" | "queues" | "config" | "log" | "progress">) {
  return importSiteOrders(ctx, payload.site_id, job.id);
}
