import { formatDay } from "@mw/platform/core";
import type { PrismaClient } from "@mw/platform/database";
import type { Queues } from "@mw/platform/queues";
import { requestReport } from "./request.ts";

/** The dashboard's generate_report: today's dashboard summary, queued unless its job has yet to run. */
export function requestDashboardSummary(deps: { prisma: PrismaClient; queues: Queues }) {
  const today = formatDay(new Date());
  return requestReport(deps, "dashboard-summary", { from: today, to: today });
}
