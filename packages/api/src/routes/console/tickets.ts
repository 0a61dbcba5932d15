import express, { type Router } from "express";
import { AppError } from "@mw/platform";
import { listSnapshots, ticketDetail, URGENCY_LEVELS } from "@mw/domains/urgency";
import { listTickets, ticketThread } from "@mw/domains/tickets";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageWindow } from "../../http/pagination.ts";
import { historyLines } from "./alert-outcomes.ts";
import { signedIn, viewer } from "./guard.ts";
import { pager, PER_PAGE } from "./pager.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";

const filters = z.object({
  ticket_number: z.string().trim().max(32).optional().catch(undefined),
  level: z.enum(URGENCY_LEVELS).optional().catch(undefined),
  page: pageQuery.shape.page.catch(1),
});

// The REST list's filters (GET /tickets/v1/tickets); one the page cannot use is dropped rather than refused.
const ticketFilters = z.object({
  search: z.string().trim().max(50).optional().catch(undefined),
  urgency: z.enum(URGENCY_LEVELS).optional().catch(undefined),
  status: z.string().trim().max(32).optional().catch(undefined),
  assigned: z.enum(["me", "anyone"]).optional().catch(undefined),
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

  // The README's quick start sends a new user here. A staff member sees the tickets assigned to them first (an administrator
  // without a staff id, every ticket); "anyone" lists them all.
  router.get("/tickets", readers, async (req, res) => {
    const query = ticketFilters.parse(req.query);
    const { principal } = viewer(res);
    const staffId = principal.staffId;
    const assigned = staffId === null ? "anyone" : (query.assigned ?? (principal.capabilities.includes("manage_options") ? "anyone" : "me"));
    const filter = { search: query.search || undefined, urgency: query.urgency, status: query.status || undefined, assigned_staff_id: assigned === "me" && staffId !== null ? staffId : undefined };
    const { total, rows } = await listTickets(ctx, filter, pageWindow({ page: query.page, per_page: PER_PAGE }));
    renderPage(res, "tickets", {
      title: "Tickets",
      tickets: rows,
      total,
      levels: URGENCY_LEVELS,
      staffId,
      filter: { search: filter.search ?? "", urgency: query.urgency ?? "", status: filter.status ?? "", assigned },
      ...pager({ search: filter.search, urgency: query.urgency, status: filter.status, assigned: staffId === null ? undefined : assigned }, query.page, total),
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
      history: historyLines(ticket.history),
      timePanel,
      scripts: timePanel ? ["time-panel.js"] : [],
      back: `${CONSOLE_PATH}/tickets`,
    });
  });
  return router;
}
