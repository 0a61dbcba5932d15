import { z } from "zod";
import { defineJob, jobId } from "@mw/platform/queues";

/** One analysis run of a ticket (spec 2, 4.7), on the rate-limited `urgency` queue. */
export const urgencyAnalysisJob = defineJob({
  queue: "urgency",
  name: "urgency-analysis",
  payload: z.object({ ticket_id: z.number().int().positive() }),
  // Design 10.8: a failed run adds 1 to the row's failures and is tried again by the job itself; no BullMQ retries on top.
  options: { attempts: 1 },
});

/** Design 10.3: each urgency_queue row has one job. */
export const urgencyAnalysisJobId = (ticketId: number) => jobId("urgency", ticketId);

/**
 * Every minute: re-queues rows that still owe an analysis and have no job
 * (an entry that arrived as a run finished, a lost Redis), and applies
 * `urgency_max_per_run` to the queue's limiter. On `webhooks`, beside the
 * other inbound-delivery sweep: on `urgency` it would use up the limiter.
 */
export const urgencySweepJob = defineJob({ queue: "webhooks", name: "urgency-sweep", payload: z.object({}), schedule: { every: 60_000 } });

export const ALERT_CHANNELS = ["email", "sms", "browser"] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/** One channel of a CRITICAL alert (spec 2, 6): each retried on its own, sent once per ticket. */
export const criticalAlertJob = defineJob({
  queue: "notifications",
  name: "critical-alert",
  payload: z.object({ ticket_id: z.number().int().positive(), channel: z.enum(ALERT_CHANNELS) }),
});

/** Design 10.8: `critical-alert.<ticket_id>.<channel>`. */
export const criticalAlertJobId = (ticketId: number, channel: AlertChannel) => jobId("critical-alert", ticketId, channel);

/** Daily (RETENTION_SCHEDULE): snapshots and analysis history past their retention. On `webhooks` with the urgency sweep: `urgency`'s limiter is the AI provider's. */
export const urgencyRetentionJob = defineJob({ queue: "retention", name: "urgency-retention", payload: z.object({}), schedule: { setting: "RETENTION_SCHEDULE" } });
