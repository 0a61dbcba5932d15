import express, { type Router } from "express";
import { AppError } from "@mw/platform";
import { listSnapshots, ticketDetail, URGENCY_LEVELS } from "@mw/domains/urgency";
import { ticketThread } from "@mw/domains/tickets";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery } from "../../http/pagination.ts";
import { signedIn, viewer } from "./guard.ts";
import { pager, PER_PAGE } from "./pager.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";

const filters = z.object({
  ticket_number: z.string().trim().max(32).optional().catch(undefined),
  level: z.enum(URGENCY_LEVELS).optional().catch(undefined),
  page: pageQuery.shape.page.catch(1),
});

/** Spec 2, 4.7.5: the urgency snapshots (newest first, by ticket number and level) and a ticket's page. */
export function ticketPages(ctx: Pick<AppContext, "options" | "prisma" | "sessions">): Router {
  const router = express.Router();
  const readers = signedIn(ctx, ["staff", "manage_options"]);

  router.get("/snapshots", readers, async (req, res) => {
    const query = filters.parse(req.query);
    const ticketNumber = query.ticket_number || undefined;
    const { snapshots, total } = await listSnapshots(ctx, { page: query.page, per_page: PER_PAGE, ticket_number: ticketNumber, level: query.level });
    renderPage(res, "snapshots", {
      title: "Urgency snapshots",
      snapshots,
      total,
      levels: URGENCY_LEVELS,
      filter: { ticket_number: ticketNumber ?? "", level: query.level ?? "" },
      ...pager({ ticket_number: ticketNumber, level: query.level }, query.page, total),
    });
  });

  router.get("/tickets/:number", readers, async (req, res) => {
    const number = String(req.params.number).slice(0, 32);
    const ticket = await ticketDetail(ctx, number);
    if (!ticket) throw new AppError(404, "rest_not_found", `No ticket with number ${number}.`);
    const [{ snapshots }, thread, timeEnabled] = await Promise.all([
      listSnapshots(ctx, { page: 1, per_page: 50, ticket_number: number }),
      ticketThread(ctx, ticket.id),
      ctx.options.get("time_api.enabled"),
    ]);
    const staffId = viewer(res).principal.staffId;
    // Spec 2, 4.5 rule 1: the panel shows on a ticket with a time project, for a staff member, with time tracking on.
    const timePanel = timeEnabled && ticket.time_project_id !== null && staffId !== null;
    renderPage(res, "ticket", {
      title: `Ticket #${ticket.number}`,
      ticket,
      snapshots,
      thread,
      timePanel,
      scripts: timePanel ? ["time-panel.js"] : [],
      back: `${CONSOLE_PATH}/snapshots`,
    });
  });
  return router;
}
