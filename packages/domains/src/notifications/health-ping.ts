import { egressGuard } from "@mw/platform/egress";
import { createHttpClient, upstreamCall } from "@mw/platform/http";
import type { JobRun, PayloadOf } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import type { healthPingJob } from "./jobs.ts";

/** A site's health-check URL was entered through the API: the egress guard checks it. */
export async function pingHealthCheck(deps: Pick<Connections, "config"> & Pick<JobRun, "log">, target: PayloadOf<typeof healthPingJob>) {
  const http = createHttpClient({ timeoutMs: deps.config.HTTP_TIMEOUT_MS, egress: egressGuard(deps.config) });
  const response = await upstreamCall("health-check URL", () => http.get(target.url));
  deps.log.info("health-check URL pinged", { url: target.url, status: response.statusCode, site_id: target.site_id });
  return { status: response.statusCode };
}
