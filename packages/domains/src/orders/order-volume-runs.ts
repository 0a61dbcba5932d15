import { formatDay } from "@mw/platform/core";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { alertEmailJob } from "../notifications/index.ts";
import { orderVolumeAlertJobId } from "./jobs.ts";
import { orderVolumeAlert, runOrderVolumeTests } from "./order-volume.ts";

type Deps = Pick<Connections, "replica"> & Pick<JobRun, "log">;

/** Every active site's test, with the windows ending now, logged with its numbers (the job's Logs tab). */
async function testAll(deps: Deps, now: Date) {
  const results = await runOrderVolumeTests(deps, now);
  for (const { site, site_id, status, orders, minimum, weekday_average, window_hours } of results) {
    deps.log.info("order volume tested", { site, site_id, status, orders, minimum, weekday_average, window_hours });
  }
  return results;
}

/** Spec 2, 4.2 `/trigger-order-volume-tests`: the results, numbers included, as the job's result; the endpoint shows the outcome only. */
export async function testOrderVolumes(deps: Deps) {
  return { results: await testAll(deps, new Date()) };
}

/** The daily run: the failures in one alert e-mail (one per day), nothing when every site passed. */
export async function alertOrderVolumes(deps: Deps & Pick<Connections, "queues">) {
  const now = new Date();
  const results = await testAll(deps, now);
  const alert = orderVolumeAlert(results, now);
  if (alert) await deps.queues.add(alertEmailJob, alert, { jobId: orderVolumeAlertJobId(formatDay(now)) });
  return { results, alerted: alert !== null };
}
