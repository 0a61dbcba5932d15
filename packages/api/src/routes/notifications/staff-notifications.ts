import type { Request } from "express";
import { AppError } from "@mw/platform";
import { latestNotifications, markNotificationsRead, notificationsAfter, takeStreamSlot, unreadCount } from "@mw/domains/notifications";
import { z } from "zod";
import { principalOf, staffIdOf, stillSignedIn } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

/** How often an open stream looks for new notifications. */
export const STREAM_POLL_MS = 2_000;

const notificationExample = { id: 57, kind: "critical", ticket_id: 123, title: "CRITICAL: ticket #004512", body: "Checkout returns 500 for all customers (90%)", read: false, created: "2026-11-20T09:21:05.002Z" };

const notification = z.object({ id: z.number().int(), kind: z.string(), ticket_id: z.number().int().nullable(), title: z.string(), body: z.string(), read: z.boolean(), created: z.string() });

/** Where a stream starts: after the browser's Last-Event-ID on a reconnect, else with the unread ones. */
function resumeFrom(req: Request): number | null {
  const raw = req.get("last-event-id") ?? (typeof req.query.after === "string" ? req.query.after : undefined);
  return raw !== undefined && /^\d{1,10}$/.test(raw) ? Number(raw) : null;
}

/** Spec 2, 6 browser notifications, under the staff AJAX root (design 10.1: session + nonce, or an application password). */
export function staffNotificationRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "logger" | "prisma" | "redis" | "sessions">): void {
  api.route({
    method: "get",
    path: "/notifications/stream",
    summary: "Server-sent events: each new notification of the signed-in staff member (event `notification`, id = notification id)",
    tag: "notifications",
    access: "staff_or_manage_options",
    documentQuery: z.object({ _wpnonce: z.string().optional().describe("the session nonce (EventSource cannot send X-Nonce)"), after: z.string().optional().describe("resume after this notification id") }),
    responses: {
      200: { description: "text/event-stream: `unread` once with the unread count, then `notification` events; ends when the session does" },
      429: { description: "rate_limited: NOTIFICATION_STREAMS_PER_STAFF streams of this staff member are open already (the newest is refused)" },
    },
    example: {
      mediaType: "text/event-stream",
      response: `retry: 5000\nevent: unread\ndata: {"unread":1}\n\nid: 57\nevent: notification\ndata: ${JSON.stringify(notificationExample)}\n\n`,
    },
    handler: async (_input, req, res) => {
      const staffId = staffIdOf(res);
      const principal = principalOf(res);
      const slot = await takeStreamSlot(ctx, staffId);
      if (!slot) {
        throw new AppError(429, "rate_limited", `You have ${ctx.config.NOTIFICATION_STREAMS_PER_STAFF} notification streams open already (other tabs or windows); close one first.`);
      }
      let closed = false;
      // A comment so proxies keep the stream open; the slot renewed and the session checked with it.
      const heartbeat = setInterval(() => {
        res.write(": keep-alive\n\n");
        const beat = async () => {
          await slot.renew();
          if (!(await stillSignedIn(ctx, req, principal))) res.end();
        };
        beat().catch((error: unknown) => ctx.logger.warn("notification stream heartbeat failed", { staff_id: staffId, error: (error as Error).message }));
      }, ctx.config.NOTIFICATION_STREAM_HEARTBEAT_SECONDS * 1000).unref();
      // The answer ends when the browser goes, or when the stream is ended here (its session ended).
      res.on("close", () => {
        closed = true;
        clearInterval(heartbeat);
        slot.release().catch((error: unknown) => ctx.logger.warn("notification stream slot not released", { staff_id: staffId, error: (error as Error).message }));
      });
      const resume = resumeFrom(req);
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive", "x-accel-buffering": "no" });
      res.write(`retry: 5000\nevent: unread\ndata: ${JSON.stringify({ unread: await unreadCount(ctx, staffId) })}\n\n`);
      let last = resume ?? 0;
      const send = async () => {
        const rows = await notificationsAfter(ctx, staffId, last);
        for (const row of rows) {
          // A fresh stream shows what is unread; a resumed one everything after its last event.
          if (resume !== null || !row.read) res.write(`id: ${row.id}\nevent: notification\ndata: ${JSON.stringify(row)}\n\n`);
          last = row.id;
        }
      };
      const poll = async () => {
        while (!closed) {
          await send().catch((error: unknown) => ctx.logger.warn("notification stream read failed", { staff_id: staffId, error: (error as Error).message }));
          await new Promise((resolve) => setTimeout(resolve, STREAM_POLL_MS).unref());
        }
      };
      await poll();
      return undefined;
    },
  });

  api.route({
    method: "get",
    path: "/notifications",
    summary: "The signed-in staff member's latest notifications and unread count",
    tag: "notifications",
    access: "staff_or_manage_options",
    responses: { 200: { description: "Newest first, at most 50", schema: z.object({ success: z.literal(true), data: z.object({ unread: z.number().int(), notifications: z.array(notification) }) }) } },
    example: { response: { success: true, data: { unread: 1, notifications: [notificationExample] } } },
    handler: async (_input, _req, res) => {
      const staffId = staffIdOf(res);
      const [unread, notifications] = await Promise.all([unreadCount(ctx, staffId), latestNotifications(ctx, staffId, 50)]);
      return { success: true as const, data: { unread, notifications } };
    },
  });

  api.route({
    method: "post",
    path: "/notifications/read",
    summary: "Mark notifications read: the given ids, or all",
    tag: "notifications",
    access: "staff_or_manage_options",
    body: z.object({ ids: z.union([z.array(z.number().int().positive()).max(500), z.literal("all")]) }),
    responses: { 200: { description: "How many changed", schema: z.object({ success: z.literal(true), data: z.object({ marked: z.number().int() }) }) } },
    example: { request: { ids: [57] }, response: { success: true, data: { marked: 1 } } },
    handler: async ({ body }, _req, res) => ({ success: true as const, data: { marked: await markNotificationsRead(ctx, staffIdOf(res), body.ids) } }),
  });
}
