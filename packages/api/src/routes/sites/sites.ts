import { errors, Prisma, withTimeout } from "@mw/shared";
import { SITE_KEYS_CHANGED, type Site } from "@mw/shared/sites";
import {
  listSites,
  openCredentials,
  platformSchema,
  siteCreateData,
  siteCreateInput,
  siteListRow,
  siteUpdateData,
  shownCredentials,
  siteUpdateInput,
  testSiteConnection,
  TOKEN_MASK,
} from "@mw/shared/sites";
import { trackingSchedule } from "@mw/shared/tracking";
import { ordersImportSchedule } from "@mw/shared/orders";
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

function knownError(error: unknown, code: string): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;
}

async function findSite(ctx: AppContext, id: number): Promise<Site> {
  const site = await ctx.prisma.site.findUnique({ where: { id } });
  if (!site) throw errors.notFound("Site not found.");
  return site;
}

const SCHEDULE_UPDATE_TIMEOUT_MS = 3000;

/**
 * After a save, the site's per-site job schedulers (tracking sync, order
 * import) follow its row. The save is committed and stays the answer; a
 * scheduler that cannot be updated (Redis down) is logged, shows as
 * `next_run: null` in GET /tracking/status, and is put right by the next save
 * or the next worker start (reconcile). Bounded in time: BullMQ waits without
 * end for a Redis it never reached.
 */
async function keepSchedulesInStep(ctx: AppContext, siteId: number): Promise<void> {
  try {
    await withTimeout(
      Promise.all([trackingSchedule.sync(ctx.prisma, ctx.queues, siteId), ordersImportSchedule.sync(ctx.prisma, ctx.queues, siteId)]),
      SCHEDULE_UPDATE_TIMEOUT_MS,
    );
  } catch (error) {
    ctx.logger.error("site schedules not updated after a site change; the next save or worker start corrects them", { site_id: siteId, error });
  }
}

/** Sites (spec 1, 4.2). */
export function siteRoutes(api: ApiRouter, ctx: AppContext): void {
  const key = ctx.config.ENCRYPTION_KEY;

  api.route({
    method: "get",
    path: "/sites",
    summary: "List sites by name; active=1 gives the order page's list of active sites",
    tag: "sites",
    access: "manage_middleware",
    query: z.object({ active: z.enum(["0", "1"]).optional().describe("1: active sites only, 0: inactive only") }),
    responses: { 200: { description: "Sites ordered by name (a bare array)", schema: z.array(siteListRow) } },
    handler: async ({ query }, _req, res) => {
      const rows = await listSites(ctx.prisma, query.active === undefined ? undefined : query.active === "1");
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
    responses: { 200: { description: "The site", schema: siteRecordSchema }, 404: { description: "No such site" } },
    handler: async ({ params }) => siteRecord(await findSite(ctx, params.id), key),
  });

  api.route({
    method: "post",
    path: "/sites",
    summary: "Create a site",
    tag: "sites",
    access: "manage_middleware",
    body: siteCreateInput,
    status: 201,
    responses: { 201: { description: "Created", schema: z.object({ id: z.number().int(), message: z.string() }) } },
    handler: async ({ body }) => {
      const data = siteCreateData(body, key);
      const site = await ctx.prisma.site.create({ data, select: { id: true } }).catch((error: unknown) => {
        throw errors.cannotSave("rest_cannot_create", "The site could not be created.", error);
      });
      ctx.logger.info("site created", { site_id: site.id, platform: body.platform, name: body.name });
      await keepSchedulesInStep(ctx, site.id);
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
    responses: { 200: { description: "Updated", schema: outcome }, 404: { description: "No such site" } },
    handler: async ({ params, body }) => {
      const data = siteUpdateData(body, await findSite(ctx, params.id), key);
      await ctx.prisma.site.update({ where: { id: params.id }, data }).catch((error: unknown) => {
        if (knownError(error, "P2025")) throw errors.notFound("Site not found.");
        throw errors.cannotSave("rest_cannot_update", "The site could not be updated.", error);
      });
      ctx.logger.info("site updated", { site_id: params.id, fields: Object.keys(body) });
      await keepSchedulesInStep(ctx, params.id);
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
    responses: {
      200: { description: "Deleted, with its API keys", schema: outcome },
      404: { description: "No such site" },
      409: { description: "The site has orders (rest_site_has_orders)" },
    },
    handler: async ({ params }) => {
      await ctx.prisma.site.delete({ where: { id: params.id }, select: { id: true } }).catch(async (error: unknown) => {
        if (knownError(error, "P2025")) throw errors.notFound("Site not found.");
        if (!knownError(error, "P2003")) throw error;
        // Orders keep their site (ON DELETE RESTRICT): they are history the ERP export and the stats still read.
        const orders = await ctx.prisma.order.count({ where: { site_id: params.id } });
        throw errors.conflict("rest_site_has_orders", `The site has ${orders} order(s) and cannot be deleted; deactivate it instead.`, { orders });
      });
      await ctx.invalidation.publish(SITE_KEYS_CHANGED);
      ctx.logger.info("site deleted", { site_id: params.id });
      await keepSchedulesInStep(ctx, params.id);
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
    responses: {
      200: { description: "The new state", schema: outcome.extend({ is_active: z.boolean() }) },
      404: { description: "No such site" },
    },
    handler: async ({ params }) => {
      // One statement, so two operators toggling at once flip twice rather than both writing the same value.
      const changed = await ctx.prisma.$executeRaw`UPDATE sites SET is_active = NOT is_active, updated_at = UTC_TIMESTAMP(3) WHERE id = ${params.id}`;
      const site = changed ? await ctx.prisma.site.findUnique({ where: { id: params.id }, select: { is_active: true } }) : null;
      if (!site) throw errors.notFound("Site not found.");
      ctx.logger.info("site toggled", { site_id: params.id, is_active: site.is_active });
      await keepSchedulesInStep(ctx, params.id);
      return { success: true as const, is_active: site.is_active, message: site.is_active ? "Site activated." : "Site deactivated." };
    },
  });

  api.route({
    method: "post",
    path: "/sites/:id/test-connection",
    summary: "Call the storefront with the stored credentials; a failure is reported with success false",
    tag: "sites",
    access: "manage_middleware",
    params: idParams,
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
      const result = await testSiteConnection(await findSite(ctx, params.id), ctx.config);
      ctx.logger.info("site connection tested", { site_id: params.id, success: result.success, result: result.message });
      return result;
    },
  });
}
