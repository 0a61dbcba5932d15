import { createHttpClient, egressGuard, upstreamCall, type Connections, type JobRun, type PayloadOf } from "@mw/platform";
import type { healthPingJob } from "./jobs.ts";

/** A site's health-check URL was entered through the API: the egress guard checks it. */
export async function pingHealthCheck(deps: Pick<Connections, "config"> & Pick<JobRun, "log">, target: PayloadOf<typeof healthPingJob>) {
  const http = createHttpClient({ timeoutMs: deps.config.HTTP_TIMEOUT_MS, egress: egressGuard(deps.config) });
  const response = await upstreamCall("health-check URL", () => http.get(target.url));
  deps.log.info("health-check URL pinged", { url: target.url, status: response.statusCode, site_id: target.site_id });
  return { status: response.statusCode };
}
