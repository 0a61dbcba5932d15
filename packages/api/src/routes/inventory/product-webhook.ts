import { receiveProductWebhook, type ProductEventOutcome } from "@mw/domains/inventory";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

/** Documented only: each platform's body is stored as received. */
const productPayload = z.looseObject({
  data: z
    .looseObject({ type: z.string().optional(), id: z.number().int().optional() })
    .optional()
    .describe("storefront_a: {type: product|sku, id, sku|inventory: {product_id}}"),
  scope: z.string().optional().describe("storefront_a: e.g. store/product/updated"),
  hash: z.string().optional().describe("storefront_a: delivery id"),
  id: z.number().int().optional().describe("storefront_b: the product (the body is the product)"),
  parent_id: z.number().int().optional().describe("storefront_b: the parent product of a variation"),
});

const STORED: Record<ProductEventOutcome, string> = {
  refresh: "Webhook received; the product's stock refresh is queued.",
  ignored: "Webhook received; it names no product whose stock needs a refresh.",
  sync_off: "Webhook received; the site does not sync inventory, so nothing was queued.",
};

export function productWebhookRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "logger" | "prisma" | "queues">): void {
  api.route({
    method: "post",
    path: "/webhooks/products/:site_id",
    summary:
      "Receive a storefront's product-change webhook (public, signed): storefront_b X-WC-Webhook-Signature, storefront_a X-Webhook-Secret; queues a stock refresh of the product",
    tag: "inventory",
    access: "public",
    params: z.object({ site_id: z.coerce.number().int().positive().max(2_147_483_647) }),
    documentBody: productPayload,
    responses: {
      202: {
        description: "Stored; the product's stock refresh is queued when the site syncs inventory",
        schema: z.object({ success: z.literal(true), message: z.string(), webhook_id: z.number().int() }),
      },
      200: {
        description: "A WooCommerce ping (webhook_id=N), or a delivery already received",
        schema: z.object({ success: z.literal(true), message: z.string() }),
      },
      400: { description: "empty_payload or invalid_json (after the signature is checked)" },
      401: { description: "Bad or missing signature, or the site has no webhook secret (rest_forbidden)" },
      404: { description: "No such site" },
      500: { description: "db_error" },
      503: { description: "queue_unavailable: stored, not queued; the inbox sweep (or a redelivery) queues it" },
    },
    example: {
      request: { scope: "store/product/updated", store_id: "1025646", data: { type: "product", id: 205 }, hash: "3f2a9c1e", created_at: 1795535133, producer: "stores/abc123" },
      response: { success: true, message: "Webhook received; the product's stock refresh is queued.", webhook_id: 77 },
      status: 202,
    },
    handler: async ({ params }, req, res) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const delivery = await receiveProductWebhook(ctx, params.site_id, raw, req.headers, req.ip);
      if (delivery.outcome === "stored") {
        res.status(202);
        return { success: true as const, message: STORED[delivery.event], webhook_id: delivery.webhookId };
      }
      return { success: true as const, message: delivery.outcome === "ping" ? "Webhook ping received." : "Event already received." };
    },
  });
}
