import { z } from "zod";
import { defineJob } from "@mw/platform";

/** Alert e-mail to ALERT_EMAIL_TO (e.g. a dispute that matched several transactions). */
export const alertEmailJob = defineJob({
  queue: "notifications",
  name: "alert-email",
  payload: z.object({ subject: z.string().min(1).max(200), text: z.string().min(1).max(100_000) }),
});

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
 */
export const chatMessageJob = defineJob({
  queue: "notifications",
  name: "chat-message",
  payload: z.object({ text: z.string().min(1).max(40_000) }),
});
