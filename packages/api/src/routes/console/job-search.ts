import type { Job } from "bullmq";
import { boardJobPath, type QueueName } from "@mw/platform";
import { disputeAlertJobId, disputeJobsByCase } from "@mw/domains/disputes";
import { alertEmailJob } from "@mw/domains/notifications";
import { orderExportJob, orderExportJobId, orderVerifyJob, orderVerifyJobId, ordersByNumber } from "@mw/domains/orders";
import { ticketIdByNumber } from "@mw/domains/tickets";
import { ALERT_CHANNELS, criticalAlertJob, criticalAlertJobId, urgencyAnalysisJob, urgencyAnalysisJobId } from "@mw/domains/urgency";
import { projectCreateJob, projectCreateJobId } from "@mw/domains/timetracking";
import { trackingOrderPushJob, trackingOrderPushJobId } from "@mw/domains/tracking";
import type { AppContext } from "../../context.ts";
import { describeJob, siteNamesOf } from "./job-description.ts";

export const KEY_KINDS = { order: "Order number", case: "Dispute case id", ticket: "Ticket number" } as const;
export type KeyKind = keyof typeof KEY_KINDS;

interface Candidate {
  queue: QueueName;
  id: string;
}

/**
 * The jobs a business key can have, by the same id builders their producers
 * use, and the job index for ids no builder derives (a dispute's replays):
 * an exact lookup per id, never a scan of a queue's jobs.
 */
async function candidates(ctx: Pick<AppContext, "prisma" | "queues">, kind: KeyKind, key: string): Promise<Candidate[]> {
  if (kind === "order") {
    const orders = await ordersByNumber(ctx, key);
    return orders.flatMap((order) => [
      { queue: orderExportJob.queue, id: orderExportJobId(order.id) },
      { queue: orderVerifyJob.queue, id: orderVerifyJobId(order.id) },
      { queue: trackingOrderPushJob.queue, id: trackingOrderPushJobId(order.site_id, order.id) },
    ]);
  }
  if (kind === "case") {
    return [...(await disputeJobsByCase(ctx, key)), { queue: alertEmailJob.queue, id: disputeAlertJobId(key) }];
  }
  const ticketId = await ticketIdByNumber(ctx, key);
  if (ticketId === null) return [];
  return [
    { queue: urgencyAnalysisJob.queue, id: urgencyAnalysisJobId(ticketId) },
    ...ALERT_CHANNELS.map((channel) => ({ queue: criticalAlertJob.queue, id: criticalAlertJobId(ticketId, channel) })),
    { queue: projectCreateJob.queue, id: projectCreateJobId(ticketId) },
  ];
}

export interface FoundJob {
  queue: QueueName;
  id: string;
  name: string;
  description: string;
  state: string;
  attempts: number;
  failed_reason: string | null;
  created: string;
  board_url: string;
}

function found(job: Job, queue: QueueName, state: string, siteNames: Map<number, string>): FoundJob {
  return {
    queue,
    id: job.id!,
    name: job.name,
    description: describeJob(job, siteNames),
    state,
    attempts: job.attemptsMade,
    failed_reason: job.failedReason || null,
    created: new Date(job.timestamp).toISOString(),
    board_url: boardJobPath(queue, job.id!),
  };
}

/** The jobs of an order number, a dispute case or a ticket number that the queues still hold, with their state. */
export async function findJobsByKey(ctx: Pick<AppContext, "prisma" | "queues">, kind: KeyKind, key: string): Promise<FoundJob[]> {
  const jobs = await Promise.all(
    (await candidates(ctx, kind, key)).map(async ({ queue, id }) => {
      const job = await ctx.queues.get(queue).getJob(id);
      return job ? { job, queue, state: await job.getState() } : null;
    }),
  );
  const present = jobs.filter((entry) => entry !== null);
  const siteNames = await siteNamesOf(ctx, present.map(({ job }) => job));
  return present.map(({ job, queue, state }) => found(job, queue, state, siteNames));
}
