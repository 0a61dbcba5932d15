import { formatDay, type PayloadOf } from "@mw/platform";
import { alertEmailJob } from "@mw/domains/notifications";
import { orderVolumeAlert, orderVolumeAlertJobId, runOrderVolumeTests, type orderVolumeDailyJob, type orderVolumeTestsJob } from "@mw/domains/orders";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** Every active site's test, with the windows ending now, logged with its numbers (the job's Logs tab). */
async function testAll(ctx: JobContext, now: Date) {
  const results = await runOrderVolumeTests(ctx, now);
  for (const { site, site_id, status, orders, minimum, weekday_average, window_hours } of results) {
    ctx.log.info("order volume tested", { site, site_id, status, orders, minimum, weekday_average, window_hours });
  }
  return results;
}

/** Spec 2, 4.2 `/trigger-order-volume-tests`: the results, numbers included, as the job's result; the endpoint shows the outcome only. */
export async function orderVolumeTests(_job: Job, _payload: PayloadOf<typeof orderVolumeTestsJob>, ctx: JobContext) {
  return { results: await testAll(ctx, new Date()) };
}

/** The daily run: the failures in one alert e-mail (one per day), nothing when every site passed. */
export async function orderVolumeDaily(_job: Job, _payload: PayloadOf<typeof orderVolumeDailyJob>, ctx: JobContext) {
  const now = new Date();
  const results = await testAll(ctx, now);
  const alert = orderVolumeAlert(results, now);
  if (alert) await ctx.queues.add(alertEmailJob, alert, { jobId: orderVolumeAlertJobId(formatDay(now)) });
  return { results, alerted: alert !== null };
}
