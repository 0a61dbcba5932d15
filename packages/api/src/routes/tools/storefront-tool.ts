import { errors, type Config } from "@mw/platform";
import { findSiteOrder } from "@mw/domains/orders";
import { requireSite, trackingSyncEnabled, trackingRunCounts, type Platform, type Site } from "@mw/domains/sites";
import { postedTracking, trackingOrderPushJob, trackingOrderPushJobId, type TrackingOrderPushResult } from "@mw/domains/tracking";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { runScheduled, scheduledAsyncQuery, scheduledQueued } from "../../http/scheduled-run.ts";

/**
 * The storefront tools' shared part (this file is not a tool: the toolshed
 * loads directories only). Each of storefront_a and storefront_b gives its
 * platform's two lookups; the routes, checks, answers and the re-push are the
 * same for both.
 */

/** An order as the storefront has it. */
export const toolOrder = z.object({
  id: z.string().describe("the storefront's order id"),
  number: z.string(),
  status: z.string(),
  date_created: z.string().nullable(),
  items: z.array(z.object({ sku: z.string().nullable(), quantity: z.number(), quantity_shipped: z.number().nullable().describe("null where the platform does not count it (storefront_b)") })),
});
type ToolOrder = z.infer<typeof toolOrder>;

/** What carries stock under a SKU on the storefront: a product, or a variant / variation of `product_id`. */
export const stockUnit = z.object({
  product_id: z.number().int(),
  variant_id: z.number().int().nullable().describe("the variant (storefront_a) or variation (storefront_b); null for a product"),
  sku: z.string(),
  manages_stock: z.boolean().describe("false: the storefront does not count this one's stock"),
  stock: z.number().nullable().describe("what the storefront shows now; null when it does not count it"),
});
type StockUnit = z.infer<typeof stockUnit>;

export interface StorefrontLookups {
  platform: Platform;
  /** The storefront's order numbered `number`; null when it has none. */
  findOrder(site: Site, config: Config, number: string): Promise<ToolOrder | null>;
  /** Everything carrying `sku` (compared without case). */
  findStock(site: Site, config: Config, sku: string): Promise<StockUnit[]>;
  /** The platform's worked examples of the two lookups (the re-push's is common). */
  examples: { order: ToolOrder; stock: StockUnit[] };
}

/** A person waits on these calls: a storefront that rate-limits is waited out this long at most, then the request fails. */
const LOOKUP_RATE_LIMIT_WAIT_MS = 5000;
/** How long a re-push is waited for before the answer is 202 with its job id; a re-push is a few calls. */
const PUSH_WAIT_MS = 30_000;

const siteParams = z.object({ site_id: z.coerce.number().int().positive().max(2_147_483_647) });
const orderParams = siteParams.extend({ number: z.string().trim().min(1).max(64).describe("the order number the storefront shows (pushed to us as `order_number`)") });

const pushed = z.object({ success: z.literal(true), order_number: z.string(), counts: trackingRunCounts });

export function storefrontToolRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "prisma" | "queues">, lookups: StorefrontLookups): void {
  const { platform } = lookups;
  const config: Config = { ...ctx.config, STOREFRONT_RATE_LIMIT_MAX_WAIT_MS: Math.min(ctx.config.STOREFRONT_RATE_LIMIT_MAX_WAIT_MS, LOOKUP_RATE_LIMIT_WAIT_MS) };
  const exampleSite = { site_id: 1, platform };

  /** The site, when it exists and is one of this tool's platform. */
  async function siteOf(siteId: number): Promise<Site> {
    const site = await requireSite(ctx, siteId);
    if (site.platform !== platform) throw errors.invalidParam("site_id", `site ${siteId} is a ${site.platform} site; this tool works on ${platform} sites`);
    return site;
  }

  api.route({
    method: "get",
    path: "/sites/:site_id/orders/:number",
    summary: `Look an order up on a ${platform} site by its number, with what the middleware holds of it`,
    tag: "tools",
    access: "manage_middleware",
    params: orderParams,
    example: {
      response: {
        ...exampleSite,
        order: lookups.examples.order,
        middleware: { received: true, erp_sales_order_number: "SO-100001", ship_status: 1, tracking: [{ tracking_number: "1Z999AA10123456784", platform_shipment_id: "31" }] },
      },
    },
    responses: {
      200: {
        description: "The order",
        schema: z.object({
          site_id: z.number().int(),
          platform: z.string(),
          order: toolOrder,
          middleware: z.object({
            received: z.boolean().describe("the order was pushed to us"),
            erp_sales_order_number: z.string().nullable(),
            ship_status: z.number().int().nullable(),
            tracking: z.array(z.object({ tracking_number: z.string(), platform_shipment_id: z.string().nullable().describe("null while a post is under way") })).describe("what the tracking sync put on the storefront"),
          }),
        }),
      },
      400: { description: "The site is of the other platform (rest_invalid_param)" },
      404: { description: "No such site, or the storefront has no such order (rest_not_found)" },
      502: { description: "The storefront failed (upstream_error)" },
    },
    handler: async ({ params }) => {
      const site = await siteOf(params.site_id);
      const order = await lookups.findOrder(site, config, params.number);
      if (!order) throw errors.notFound(`Order ${params.number} was not found on ${platform} site ${site.id}.`);
      const [stored, records] = await Promise.all([findSiteOrder(ctx, site.id, order.number), postedTracking(ctx, site.id, order.id)]);
      return {
        site_id: site.id,
        platform,
        order,
        middleware: { received: stored !== null, erp_sales_order_number: stored?.erp_sales_order_number ?? null, ship_status: stored?.ship_status ?? null, tracking: records },
      };
    },
  });

  api.route({
    method: "get",
    path: "/sites/:site_id/stock",
    summary: `The stock a ${platform} site shows for a SKU`,
    tag: "tools",
    access: "manage_middleware",
    params: siteParams,
    query: z.object({ sku: z.string().trim().min(1).max(255) }),
    example: { response: { ...exampleSite, sku: lookups.examples.stock[0]!.sku, units: lookups.examples.stock } },
    responses: {
      200: { description: "What carries the SKU", schema: z.object({ site_id: z.number().int(), platform: z.string(), sku: z.string(), units: z.array(stockUnit) }) },
      400: { description: "The site is of the other platform (rest_invalid_param)" },
      404: { description: "No such site, or nothing on the storefront carries the SKU (rest_not_found)" },
      502: { description: "The storefront failed (upstream_error)" },
    },
    handler: async ({ params, query }) => {
      const site = await siteOf(params.site_id);
      const units = await lookups.findStock(site, config, query.sku);
      if (units.length === 0) throw errors.notFound(`No product with SKU ${query.sku} was found on ${platform} site ${site.id}.`);
      return { site_id: site.id, platform, sku: query.sku, units };
    },
  });

  api.route({
    method: "post",
    path: "/sites/:site_id/orders/:number/tracking",
    summary: `Push one order's ERP tracking numbers to a ${platform} site again (a tracking-order-push job; waited for up to 30 s)`,
    tag: "tools",
    access: "manage_middleware",
    params: orderParams,
    documentQuery: scheduledAsyncQuery,
    example: { response: { success: true, order_number: "100045", counts: { ...zeroCounts(), orders: 1, shipments_created: 1 } } },
    responses: {
      200: { description: "Done: the run's counts (shipments_created: posted now; already_posted: found on the storefront)", schema: pushed },
      202: { description: "Still running after 30 s, or ?async=1", schema: scheduledQueued },
      400: { description: "The site is of the other platform, or does not sync tracking (rest_invalid_param)" },
      404: { description: "No such site, the order was never pushed to us, or the storefront has no such order (rest_not_found)" },
      409: { description: "order_not_exported: the order has no ERP sales order yet, so no tracking" },
      500: { description: "sync_error: the storefront refused the tracking (its reason in the message)" },
    },
    handler: async ({ params }, req, res) => {
      const site = await siteOf(params.site_id);
      if (!trackingSyncEnabled(site)) throw errors.invalidParam("site_id", "tracking sync is off for this site: it needs is_active, tracking_sync and tracking_enabled");
      const order = await findSiteOrder(ctx, site.id, params.number);
      if (!order) throw errors.notFound(`Order ${params.number} of site ${site.id} was never pushed to the middleware, so it has no ERP tracking.`);
      if (!order.erp_sales_order_number) throw errors.conflict("order_not_exported", `Order ${params.number} is not in the ERP yet, so it has no tracking to push.`);
      const outcome = await runScheduled(ctx, req, res, trackingOrderPushJob, { site_id: site.id, order_number: params.number }, `The tracking re-push of order ${params.number}`, {
        jobId: trackingOrderPushJobId(site.id, order.id),
        waitMs: PUSH_WAIT_MS,
      });
      if (!("state" in outcome)) return outcome;
      const result = outcome.result as TrackingOrderPushResult;
      if ("counts" in result) return { success: true as const, order_number: params.number, counts: result.counts };
      if (result.skipped === "order_not_found") throw errors.notFound(`Order ${params.number} was not found on ${platform} site ${site.id}.`);
      // The site was deleted or its tracking turned off while the job waited.
      throw errors.conflict("tracking_push_skipped", `The tracking re-push of order ${params.number} did nothing: ${result.skipped.replace(/_/g, " ")}.`);
    },
  });
}

function zeroCounts(): z.infer<typeof trackingRunCounts> {
  return { orders: 0, shipments_created: 0, already_posted: 0, skipped_carrier: 0, skipped_invalid: 0, unmapped_carrier: 0, not_linked: 0, not_exported: 0, awaiting_shipment: 0, claimed_by_other_run: 0, completed: 0, errors: 0 };
}
