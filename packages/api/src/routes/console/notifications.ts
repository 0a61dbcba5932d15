import express, { type Router } from "express";
import { latestNotifications, markNotificationsRead } from "@mw/domains/notifications";
import { ticketNumbersOf } from "@mw/domains/tickets";
import type { AppContext } from "../../context.ts";
import { signedIn, viewer } from "./guard.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";

/** Spec 2, 6: a staff member's notifications (the bell links here), and marking them read. */
export function notificationPages(ctx: Pick<AppContext, "prisma" | "sessions">): Router {
  const router = express.Router();
  const staff = signedIn(ctx, ["staff", "manage_options"]);

  router.get("/notifications", staff, async (_req, res) => {
    const staffId = viewer(res).principal.staffId;
    const notifications = staffId === null ? [] : await latestNotifications(ctx, staffId, 50);
    const numbers = await ticketNumbersOf(ctx, notifications.map((row) => row.ticket_id).filter((id): id is number => id !== null));
    renderPage(res, "notifications", {
      title: "Notifications",
      linked: staffId !== null,
      notifications: notifications.map((row) => ({ ...row, ticket_number: row.ticket_id === null ? null : (numbers.get(row.ticket_id) ?? null) })),
    });
  });

  router.post("/notifications/read", staff, async (_req, res) => {
    const staffId = viewer(res).principal.staffId;
    if (staffId !== null) await markNotificationsRead(ctx, staffId, "all");
    res.redirect(303, `${CONSOLE_PATH}/notifications`);
  });
  return router;
}
