import express, { type Router } from "express";
import { errors } from "@mw/platform";
import { ORDER_STATE_FILTERS, orderDetailView, orderListView } from "@mw/domains/orders";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageWindow } from "../../http/pagination.ts";
import { signedIn } from "./guard.ts";
import { pager, PER_PAGE } from "./pager.ts";
import { renderPage } from "./render.ts";

const params = z.object({ id: z.coerce.number().int().positive() });

// A filter the page cannot use is dropped rather than refused: the page still lists.
const filters = z.object({
  state: z.enum(ORDER_STATE_FILTERS).optional().catch(undefined),
  search: z.string().trim().max(50).optional().catch(undefined),
  page: pageQuery.shape.page.catch(1),
});

/** The admin order viewer (spec 1, 4.4) for operators: GET /orders and GET /orders/{id}'s answers, each order's lifecycle first. */
export function orderPages(ctx: Pick<AppContext, "prisma" | "queues" | "replica" | "sessions">): Router {
  const router = express.Router();
  const operators = signedIn(ctx, ["manage_middleware"]);

  router.get("/orders", operators, async (req, res) => {
    const query = filters.parse(req.query);
    const filter = { state: query.state, search: query.search || undefined };
    const { total, orders } = await orderListView(ctx, filter, pageWindow({ page: query.page, per_page: PER_PAGE }));
    renderPage(res, "orders", {
      title: "Orders",
      orders,
      total,
      states: ORDER_STATE_FILTERS,
      filter: { state: filter.state ?? "", search: filter.search ?? "" },
      ...pager(filter, query.page, total),
    });
  });

  router.get("/orders/:id", operators, async (req, res) => {
    const parsed = params.safeParse(req.params);
    const order = parsed.success ? await orderDetailView(ctx, parsed.data.id) : null;
    if (!order) throw errors.notFound("No such order.");
    renderPage(res, "order", { title: `Order ${order.number}`, order });
  });
  return router;
}
