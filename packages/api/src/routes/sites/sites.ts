import { errors } from "@mw/platform";
import { countSiteOrders } from "@mw/domains/orders";
import { SITE_SCHEDULES } from "@mw/domains/schedules";
import {
  createSite,
  deleteSite,
  listSites,
  openCredentials,
  platformSchema,
  requireSite,
  siteCreateInput,
  siteListRow,
  shownCredentials,
  siteUpdateInput,
  testSiteConnection,
  TOKEN_MASK,
  toggleSiteStatus,
  updateSite,
  type Site,
} from "@mw/domains/sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { idParams, outcome } from "../../http/route-schemas.ts";

const siteRecordSchema = siteListRow.omit({ order_last_run: true, inventory_last_run: true, tracking_last_run: true }).extend({
  api_credentials: z.object({ client_id: z.string(), access_token: z.string().describe(`always ${TOKEN_MASK}: the token itself is never returned`) }).nullable(),
  health_check_url: z.string().nullable(),
  status_filters: z.string(),
  auto_complete: z.boolean(),
  send_customer_email: z.boolean(),
  channel_filter: z.object({ channel_id: z.number().int(), name: z.string() }).nullable(),
  out_of_stock_threshold: z.number().int(),
  fraud_team_id: z.string().nullable(),
  fraud_api_key_set: z.boolean().describe("the key itself is never returned"),
  webhook_secret_set: z.boolean().describe("the secret itself is never returned"),
  api_base_url: z.string().nullable(),
  order_volume_window_hours: z.number().int().describe("order-volume test: hours counted back from each run (1 to 168)"),
  order_volume_min: z.number().int().describe("order-volume test: fewer orders than this in the window fail"),
});

/** The single-site view: the client id with the token masked (spec 1, 2.2 names both), the other secrets only reported as set or not. */
function siteRecord(site: Site, key: Buffer): z.infer<typeof siteRecordSchema> {
  return {
    id: site.id,
    name: site.name,
    platform: site.platform,
    site_url: site.site_url,
    api_credentials: site.api_credentials ? shownCredentials(openCredentials(site.api_credentials, key)) : null,
    is_active: site.is_active,
    orders_sync: site.orders_sync,
    inventory_sync: site.inventory_sync,
    tracking_sync: site.tracking_sync,
    tracking_enabled: site.tracking_enabled,
    health_check_url: site.health_check_url,
    status_filters: site.status_filters,
    auto_complete: site.auto_complete,
    send_customer_email: site.send_customer_email,
    channel_filter: site.channel_filter as z.infer<typeof siteRecordSchema>["channel_filter"],
    out_of_stock_threshold: site.out_of_stock_threshold,
    fraud_team_id: site.fraud_team_id,
    fraud_api_key_set: site.fraud_api_key !== null,
    webhook_secret_set: site.webhook_secret !== null,
    api_base_url: site.api_base_url,
    order_volume_window_hours: site.order_volume_window_hours,
    order_volume_min: site.order_volume_min,
  };
}

const exampleAt = "2026-11-20 10:15:00";
const exampleSite = {
  id: 1,
  name: "Main shop",
  platform: "storefront_a",
  site_url: "https://store-abc123.mybigcommerce.com",
  is_active: true,
  orders_sync: true,
  inventory_sync: true,
  tracking_sync: true,
  tracking_enabled: true,
};

/** Sites (spec 1, 4.2). */
export function siteRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "invalidation" | "logger" | "prisma" | "queues">): void {
  const key = ctx.config.ENCRYPTION_KEY;
  const writes = { ...ctx, siteSchedules: SITE_SCHEDULES };

  api.route({
    method: "get",
    path: "/sites",
    summary: "List sites by name; active=1 gives the order page's list of active sites",
    tag: "sites",
    access: "manage_middleware",
    query: z.object({ active: z.enum(["0", "1"]).optional().describe("1: active sites only, 0: inactive only") }),
    example: {
      response: [{ ...exampleSite, order_last_run: exampleAt, inventory_last_run: "2026-11-20 10:00:03", tracking_last_run: "2026-11-20 10:00:05" }],
    },
    responses: { 200: { description: "Sites ordered by name (a bare array)", schema: z.array(siteListRow) } },
    handler: async ({ query }, _req, res) => {
      const rows = await listSites(ctx, query.active === undefined ? undefined : query.active === "1");
      // The order page may keep its list 5 minutes (spec 1, section 8); the admin list must show a toggle at once.
      res.set("Cache-Control", query.active === "1" ? "private, max-age=300" : "private, no-cache");
      return rows;
    },
  });

  api.route({
    method: "get",
    path: "/sites/:id",
    summary: "One site with its API client id (the token masked) and settings",
    tag: "sites",
    access: "manage_middleware",
    params: idParams,
    example: {
      response: {
        ...exampleSite,
        api_credentials: { client_id: "<client id>", access_token: "********" },
        health_check_url: null,
        status_filters: "9,3",
        auto_complete: true,
        send_customer_email: true,
        channel_filter: null,
        out_of_stock_threshold: 0,
        fraud_team_id: null,
        fraud_api_key_set: false,
        webhook_secret_set: true,
        api_base_url: null,
        order_volume_window_hours: 24,
        order_volume_min: 1,
      },
    },
    responses: { 200: { description: "The site", schema: siteRecordSchema }, 404: { description: "No such site" } },
    handler: async ({ params }) => siteRecord(await requireSite(ctx, params.id), key),
  });

  api.route({
    method: "post",
    path: "/sites",
    summary: "Create a site",
    tag: "sites",
    access: "manage_middleware",
    body: siteCreateInput,
    status: 201,
    example: {
      request: {
        name: "Main shop",
        platform: "storefront_a",
        site_url: "https://store-abc123.mybigcommerce.com",
        api_key: "<client id>",
        api_secret: "<access token>",
        orders_sync: true,
        inventory_sync: true,
        tracking_sync: true,
      },
      response: { id: 1, message: "Site created." },
    },
    responses: { 201: { description: "Created", schema: z.object({ id: z.number().int(), message: z.string() }) } },
    handler: async ({ body }) => {
      const site = await createSite(writes, body);
      return { id: site.id, message: "Site created." };
    },
  });

  api.route({
    method: "put",
    path: "/sites/:id",
    summary: "Update a site; absent fields keep their value, null clears a setting",
    tag: "sites",
    access: "manage_middleware",
    params: idParams,
    body: siteUpdateInput,
    example: { request: { tracking_sync: false, status_filters: "9,3,11", order_volume_min: 5 }, response: { success: true, message: "Site updated." } },
    responses: { 200: { description: "Updated", schema: outcome }, 404: { description: "No such site" } },
    handler: async ({ params, body }) => {
      await updateSite(writes, params.id, body);
      return { success: true as const, message: "Site updated." };
    },
  });

  api.route({
    method: "delete",
    path: "/sites/:id",
    summary: "Delete a site that has no orders (deactivate one that has)",
    tag: "sites",
    access: "manage_middleware",
    params: idParams,
    example: { response: { success: true, message: "Site deleted." } },
    responses: {
      200: { description: "Deleted, with its API keys", schema: outcome },
      404: { description: "No such site" },
      409: { description: "The site has orders (rest_site_has_orders)" },
    },
    handler: async ({ params }) => {
      const { outcome } = await deleteSite(writes, params.id);
      if (outcome === "has_orders") {
        const orders = await countSiteOrders(ctx, params.id);
        throw errors.conflict("rest_site_has_orders", `The site has ${orders} order(s) and cannot be deleted; deactivate it instead.`, { orders });
      }
      return { success: true as const, message: "Site deleted." };
    },
  });

  api.route({
    method: "post",
    path: "/sites/:id/toggle-status",
    summary: "Activate an inactive site or deactivate an active one",
    tag: "sites",
    access: "manage_middleware",
    params: idParams,
    example: { response: { success: true, message: "Site deactivated.", is_active: false } },
    responses: {
      200: { description: "The new state", schema: outcome.extend({ is_active: z.boolean() }) },
      404: { description: "No such site" },
    },
    handler: async ({ params }) => {
      const { is_active } = await toggleSiteStatus(writes, params.id);
      return { success: true as const, is_active, message: is_active ? "Site activated." : "Site deactivated." };
    },
  });

  api.route({
    method: "post",
    path: "/sites/:id/test-connection",
    summary: "Call the storefront with the stored credentials; a failure is reported with success false",
    tag: "sites",
    access: "manage_middleware",
    params: idParams,
    example: {
      response: { success: true, message: "Connection successful.", details: { platform: "storefront_a", store_name: "Main shop", api_version: "v2/v3" } },
    },
    responses: {
      200: {
        description: "The result of the call, successful or not",
        schema: z.object({
          success: z.boolean(),
          message: z.string(),
          details: z.object({ platform: platformSchema, store_name: z.string().nullable(), api_version: z.string().nullable() }),
        }),
      },
      404: { description: "No such site" },
    },
    handler: async ({ params }) => {
      const result = await testSiteConnection(await requireSite(ctx, params.id), ctx.config);
      ctx.logger.info("site connection tested", { site_id: params.id, success: result.success, result: result.message });
      return result;
    },
  });
}
