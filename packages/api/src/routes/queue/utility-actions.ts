import { clearQueueLogs, QUEUE_NAMES, queueLogDir, readQueueLogs, upcomingRuns } from "@mw/platform";
import { formInt } from "@mw/domains/managed-sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { adminAction, type AdminAction } from "../../http/admin-ajax.ts";

/** An optional filter: a dashboard form sends an empty field for "any". */
const filter = <T extends z.ZodType>(schema: T) => z.union([z.literal("").transform(() => undefined), schema]).optional();

const queueFilter = filter(z.enum(QUEUE_NAMES));

const logLine = z.object({
  timestamp: z.string(),
  level: z.string(),
  queue: z.string(),
  job_id: z.string().nullable(),
  job_name: z.string().nullable(),
  message: z.string(),
  fields: z.record(z.string(), z.unknown()),
});

/** Spec 2, 4.4 Utilities and design 10.8: the queue log files (LOG_DIR/queues) and what runs next. */
export function queueUtilityActions(ctx: Pick<AppContext, "config" | "queues" | "redis">): AdminAction[] {
  const dir = queueLogDir(ctx.config.LOG_DIR);
  return [
    adminAction({
      name: "get_logs",
      group: "Utilities",
      summary:
        "Recent lines of the queue log files, newest first, across rolled-over files: limit (default 100, at most 1000); filters queue, level (that level and more severe), text (case-insensitive, in the message, job id or name, or a field as key=value), since (ISO time)",
      input: z.object({
        queue: queueFilter,
        level: filter(z.enum(["error", "warn", "info", "debug"])),
        text: filter(z.string().trim().min(1).max(200)),
        since: filter(z.iso.datetime({ offset: true }).transform((value) => new Date(value))),
        limit: formInt(1, 1000).default(100),
      }),
      data: z.object({ lines: z.array(logLine), limit: z.number().int(), more: z.boolean() }),
      example: {
        input: { queue: "notifications", level: "warn", limit: 2 },
        data: {
          lines: [
            {
              timestamp: "2026-11-25T10:00:02.120Z",
              level: "error",
              queue: "notifications",
              job_id: "health-ping.12.1764064800",
              job_name: "health-ping",
              message: "job failed",
              fields: { attempt: 1, error: "health-check URL answered 503", permanent: false, duration_ms: 41 },
            },
          ],
          limit: 2,
          more: false,
        },
      },
      handler: async (input) => ({ ...(await readQueueLogs(dir, input)), limit: input.limit }),
    }),
    adminAction({
      name: "clear_logs",
      group: "Utilities",
      summary: "Removes the rolled-over queue log files and empties each live one (its writer keeps appending); optionally one queue's",
      input: z.object({ queue: queueFilter }),
      data: z.object({ removed: z.array(z.string()), truncated: z.array(z.string()) }),
      example: {
        input: { queue: "orders" },
        data: { removed: ["orders-2026-11-24.worker-1-4711.log", "orders-2026-11-25.worker-1-4711.log"], truncated: ["orders-2026-11-25.worker-1-4711.log.1"] },
      },
      handler: async (input) => clearQueueLogs(dir, input.queue),
    }),
    adminAction({
      name: "get_cron_queue",
      group: "Utilities",
      summary: "Every job scheduler (pattern or every_ms, next run) and the delayed jobs that run soonest (at most limit, default 100), across the queues or one",
      input: z.object({ queue: queueFilter, limit: formInt(1, 1000).default(100) }),
      data: z.object({
        schedulers: z.array(
          z.object({
            queue: z.string(),
            key: z.string(),
            name: z.string(),
            pattern: z.string().nullable(),
            every_ms: z.number().nullable(),
            tz: z.string().nullable(),
            next_run: z.string().nullable(),
            iterations: z.number().int(),
          }),
        ),
        delayed: z.array(z.object({ queue: z.string(), id: z.string(), name: z.string(), runs_at: z.string(), attempts_made: z.number().int() })),
        more: z.boolean(),
      }),
      example: {
        input: {},
        data: {
          schedulers: [
            { queue: "webhooks", key: "outbox-sweep", name: "outbox-sweep", pattern: null, every_ms: 60_000, tz: null, next_run: "2026-11-25T10:01:00.000Z", iterations: 42 },
            { queue: "inventory", key: "inventory-sweep", name: "inventory-sweep", pattern: "0 * * * *", every_ms: null, tz: null, next_run: "2026-11-25T11:00:00.000Z", iterations: 7 },
          ],
          delayed: [{ queue: "orders", id: "order-export.1234", name: "order-export", runs_at: "2026-11-25T10:05:00.000Z", attempts_made: 2 }],
          more: false,
        },
      },
      handler: async (input) => upcomingRuns(ctx.queues, ctx.redis, input),
    }),
  ];
}
