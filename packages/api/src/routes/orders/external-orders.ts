import { AppError, errors, type PayloadOf } from "@mw/platform";
import { isSystemSku, orderExportJob, orderExportJobId, orderSubmissionSchema, parseSubmission, storeOrder } from "@mw/shared/orders";
import { z } from "zod";
import { siteKeyOf } from "../../auth/site-key.ts";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

const answer = z.object({ success: z.boolean(), order_number: z.string(), message: z.string() });

/** POST /external/orders (spec 1, 4.1): validate, check SKUs, store in one transaction, queue the export, answer. */
export function externalOrderRoutes(api: ApiRouter, ctx: AppContext): void {
  api.route({
    method: "post",
    path: "/external/orders",
    summary: "Submit an order for the API key's site",
    tag: "orders",
    access: "site_key",
    // parseSubmission validates (its error order and truncation rules are the spec's); the schema documents.
    documentBody: orderSubmissionSchema,
    responses: {
      201: { description: "Stored and queued for export to the ERP", schema: answer },
      200: { description: "Already stored with the same content (a retry)", schema: answer },
      400: { description: "rest_missing_callback_param, rest_invalid_param or invalid_date" },
      409: { description: "duplicate_order: the order number exists with other content" },
      422: { description: "unknown_skus: data.unknown_skus lists them; nothing stored" },
      500: { description: "db_error: nothing stored" },
    },
    handler: async (_input, req, res) => {
      const { siteId } = siteKeyOf(res);
      const order = parseSubmission(req.body, ctx.config.DEFAULT_CARRIER_CODE);
      const unknown = await guardDb(() => ctx.knownSkus.unknown(order.lines.map((line) => line.sku).filter((sku) => !isSystemSku(sku))));
      if (unknown.length) {
        throw new AppError(422, "unknown_skus", `Unknown SKU(s): ${unknown.join(", ")}`, { unknown_skus: unknown });
      }
      const outcome = await guardDb(() => storeOrder(ctx.prisma, ctx.sql, siteId, order));
      if (outcome.kind === "conflict") {
        throw errors.conflict("duplicate_order", `Order ${order.number} already exists for this site with different content.`);
      }
      // A retry of an order whose export was never queued gets it queued now; the job id makes this a no-op otherwise.
      if (outcome.kind === "created" || outcome.imported === 0) {
        await queueExport(ctx, { order_id: outcome.orderId, order_number: order.number, site_id: siteId });
      }
      if (outcome.kind === "same") {
        res.status(200);
        return { success: true, order_number: order.number, message: "Order already received." };
      }
      ctx.logger.info("order received", { site_id: siteId, order_id: outcome.orderId, order_number: order.number, lines: order.lines.length });
      res.status(201);
      return { success: true, order_number: order.number, message: "Order created." };
    },
  });
}

async function guardDb<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(500, "db_error", "The order could not be stored: database error.", {}, { cause: error });
  }
}

async function queueExport(ctx: AppContext, order: PayloadOf<typeof orderExportJob> & { site_id: number }): Promise<void> {
  try {
    await ctx.queues.add(orderExportJob, order, { jobId: orderExportJobId(order.order_id) });
  } catch (error) {
    // The order is stored and the periodic sweep will export it; a retry of this request queues it at once.
    throw errors.queueUnavailable("The order was stored but its export could not be queued", error);
  }
}
