import { z } from "zod";
import { defineJob, jobId } from "@mw/platform/queues";

/**
 * An alert for the operators (a dispute that matched several transactions, an
 * expiring certificate, or an alert whose own recipients or channel were
 * missing): to ALERT_EMAIL_TO and CHAT_WEBHOOK_URL, kept in operator_alerts
 * under `key` (the job's id when absent) until it reached one of them.
 */
export const alertEmailJob = defineJob({
  queue: "notifications",
  name: "alert-email",
  payload: z.object({
    subject: z.string().min(1).max(200),
    text: z.string().min(1).max(100_000),
    key: z.string().min(1).max(191).optional(),
    reason: z.string().min(1).max(500).optional(),
  }),
});

/** One delivery attempt of an operator alert; `attempt` tells an operator's resend from the first. */
export const operatorAlertJobId = (key: string, attempt?: number) => (attempt === undefined ? jobId("operator-alert", key) : jobId("operator-alert", key, "resend", attempt));

/** GET a site's health-check URL after a successful run (spec 1, 6c). */
export const healthPingJob = defineJob({
  queue: "notifications",
  name: "health-ping",
  payload: z.object({ url: z.url(), site_id: z.number().int().optional() }),
});

/**
 * POST a message to CHAT_WEBHOOK_URL (the chat service's incoming webhook).
 * The URL is the worker's configuration, never the job's: a job carrying a
 * destination would let whoever can write a job choose where the worker posts.
 * `key` and `subject` name it on the undelivered list when no attempt gets
 * through (the job's id and "Chat message" when absent).
 */
export const chatMessageJob = defineJob({
  queue: "notifications",
  name: "chat-message",
  payload: z.object({ text: z.string().min(1).max(40_000), key: z.string().min(1).max(150).optional(), subject: z.string().min(1).max(200).optional() }),
});

/** Daily (RETENTION_SCHEDULE): staff notifications and ended operator alerts past their retention. */
export const notificationsRetentionJob = defineJob({ queue: "retention", name: "notifications-retention", payload: z.object({}), schedule: { setting: "RETENTION_SCHEDULE" } });
