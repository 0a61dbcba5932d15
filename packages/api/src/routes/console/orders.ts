import express, { type Router } from "express";
import { errors } from "@mw/platform";
import { orderDetailView } from "@mw/shared/orders";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { signedIn } from "./guard.ts";
import { renderPage } from "./render.ts";

const params = z.object({ id: z.coerce.number().int().positive() });

/** The admin order viewer's one order (spec 1, 4.4) for operators: GET /orders/{id}'s answer, its lifecycle first. */
export function orderPages(ctx: AppContext): Router {
  const router = express.Router();

  router.get("/orders/:id", signedIn(ctx, ["manage_middleware"]), async (req, res) => {
    const parsed = params.safeParse(req.params);
    const order = parsed.success ? await orderDetailView(ctx, parsed.data.id) : null;
    if (!order) throw errors.notFound("No such order.");
    renderPage(res, "order", { title: `Order ${order.number}`, order });
  });
  return router;
}
