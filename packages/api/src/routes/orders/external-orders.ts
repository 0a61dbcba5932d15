import { AppError, errors } from "@mw/platform";
import { orderSubmissionSchema, receiveOrder } from "@mw/domains/orders";
import { z } from "zod";
import { siteKeyOf } from "../../auth/site-key.ts";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

const answer = z.object({ success: z.boolean(), order_number: z.string(), message: z.string() });

const exampleBilling = { first_name: "Ada", last_name: "Lovelace", address1: "1 Analytical Way", city: "Springfield", state: "IL", postal_code: "62701", country: "US", email: "ada@example.com", phone: "555-0100" };

/** POST /external/orders (spec 1, 4.1): the intake (receiveOrder) and its answers. */
export function externalOrderRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "knownSkus" | "logger" | "prisma" | "queues" | "sql">): void {
  api.route({
    method: "post",
    path: "/external/orders",
    summary: "Submit an order for the API key's site",
    tag: "orders",
    access: "site_key",
    // parseSubmission validates (its error order and truncation rules are the spec's); the schema documents.
    documentBody: orderSubmissionSchema,
    example: {
      request: {
        order_number: "100045",
        date: "2026-11-20",
        payment_method: "pay_1",
        transaction_id: "TX-778899",
        billing_address: exampleBilling,
        line_items: [
          { line_number: 1, sku: "TEE-BLK-M", quantity: 2, unit_price: 19.9 },
          { line_number: 2, sku: "SHIPPING", quantity: 1, unit_price: 4.95 },
        ],
      },
      response: { success: true, order_number: "100045", message: "Order created." },
      status: 201,
    },
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
      const result = await receiveOrder(ctx, siteId, req.body);
      const { order } = result;
      switch (result.outcome) {
        case "unknown_skus":
          throw new AppError(422, "unknown_skus", `Unknown SKU(s): ${result.unknownSkus.join(", ")}`, { unknown_skus: result.unknownSkus });
        case "duplicate":
          throw errors.conflict("duplicate_order", `Order ${order.number} already exists for this site with different content.`);
        case "same":
          res.status(200);
          return { success: true, order_number: order.number, message: "Order already received." };
        case "created":
          ctx.logger.info("order received", { site_id: siteId, order_id: result.orderId, order_number: order.number, lines: order.lines.length });
          res.status(201);
          return { success: true, order_number: order.number, message: "Order created." };
      }
    },
  });
}
