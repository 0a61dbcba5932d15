import type { PayloadOf } from "@mw/shared";
import { htmlToText } from "@mw/shared/ai";
import { createProjectForTicket, stopTimerForReply, type projectCreateJob, type TimeDeps, type timerStopOnReplyJob } from "@mw/shared/timetracking";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";
import { processServices } from "../services.ts";

/** Design 10.8: with time_api.enabled off, time jobs do nothing but say so. */
async function timeDeps(ctx: JobContext, what: string): Promise<TimeDeps | null> {
  const { options } = processServices(ctx);
  if (await options.get("time_api.enabled")) return { prisma: ctx.prisma, redis: ctx.redis, options, config: ctx.config };
  ctx.log.info(`${what} skipped: time tracking is disabled`);
  return null;
}

export async function timerStopOnReply(_job: Job, payload: PayloadOf<typeof timerStopOnReplyJob>, ctx: JobContext) {
  const deps = await timeDeps(ctx, "timer stop on reply");
  if (!deps) return { skipped: "time_tracking_disabled" };
  const entry = await ctx.prisma.ticketEntry.findUnique({ where: { id: payload.thread_entry_id } });
  const text = entry ? (entry.format === "html" ? htmlToText(entry.body) : entry.body) : "";
  const result = await stopTimerForReply(deps, { ...payload, entry_text: text });
  if (result.stopped) ctx.log.info("running timer stopped by a reply", { ticket_id: payload.ticket_id, staff_id: payload.staff_id, entry_id: result.entry_id });
  return result;
}

export async function projectCreate(_job: Job, payload: PayloadOf<typeof projectCreateJob>, ctx: JobContext) {
  const deps = await timeDeps(ctx, "project creation");
  if (!deps) return { skipped: "time_tracking_disabled" };
  const result = await createProjectForTicket(deps, payload.ticket_id);
  if ("project_id" in result && !("skipped" in result)) ctx.log.info("time-tracking project created for the ticket", { ticket_id: payload.ticket_id, ...result });
  return result;
}
