import { errors } from "@mw/platform";
import { deleteCarrierMapping, listCarrierMappings, platformSchema, saveCarrierMapping } from "@mw/domains/sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";
import { idParams, outcome } from "../../http/route-schemas.ts";

const carrierMapping = z.object({
  id: z.number().int(),
  platform: platformSchema,
  erp_carrier_code: z.string(),
  platform_carrier_code: z.string(),
});

const carrierMappingBody = z.object({
  platform: platformSchema,
  // ERP shipping agent codes are upper case (the seeded UPS, FEDEX, ...); a lower-case entry would never match.
  erp_carrier_code: z.string().trim().min(1).max(20).toUpperCase(),
  platform_carrier_code: z.string().trim().min(1).max(50),
});

const exampleMapping = { id: 6, platform: "storefront_a", erp_carrier_code: "UPS", platform_carrier_code: "ups" };

/** The ERP carrier code to platform carrier code mappings the tracking sync uses. */
export function carrierMappingRoutes(api: ApiRouter, ctx: Pick<AppContext, "logger" | "prisma">): void {
  api.route({
    method: "get",
    path: "/carrier-mappings",
    summary: "ERP carrier code to platform carrier code, by platform and ERP code",
    tag: "sites",
    access: "manage_middleware",
    query: pageQuery.extend({ platform: platformSchema.optional() }),
    example: { response: pageOf("carrier_mappings", [exampleMapping], 1, { page: 1, per_page: 20 }) },
    responses: { 200: { description: "One page of mappings", schema: pageSchema("carrier_mappings", carrierMapping) } },
    handler: async ({ query }) => {
      const { total, rows } = await listCarrierMappings(ctx, query.platform, pageWindow(query));
      return pageOf("carrier_mappings", rows, total, query);
    },
  });

  api.route({
    method: "put",
    path: "/carrier-mappings",
    summary: "Create or change the mapping of one ERP carrier code on one platform",
    tag: "sites",
    access: "manage_middleware",
    body: carrierMappingBody,
    example: {
      request: { platform: "storefront_a", erp_carrier_code: "UPS", platform_carrier_code: "ups" },
      response: { success: true, message: "Carrier mapping saved.", carrier_mapping: exampleMapping },
    },
    responses: { 200: { description: "Saved", schema: outcome.extend({ carrier_mapping: carrierMapping }) } },
    handler: async ({ body }) => {
      const row = await saveCarrierMapping(ctx, body);
      ctx.logger.info("carrier mapping saved", { ...body });
      return { success: true as const, message: "Carrier mapping saved.", carrier_mapping: row };
    },
  });

  api.route({
    method: "delete",
    path: "/carrier-mappings/:id",
    summary: "Delete a carrier mapping; the ERP code then reaches the storefront without a carrier",
    tag: "sites",
    access: "manage_middleware",
    params: idParams,
    example: { response: { success: true, message: "Carrier mapping deleted." } },
    responses: { 200: { description: "Deleted", schema: outcome }, 404: { description: "No such mapping" } },
    handler: async ({ params }) => {
      if (!(await deleteCarrierMapping(ctx, params.id))) throw errors.notFound("Carrier mapping not found.");
      ctx.logger.info("carrier mapping deleted", { carrier_mapping_id: params.id });
      return { success: true as const, message: "Carrier mapping deleted." };
    },
  });
}
