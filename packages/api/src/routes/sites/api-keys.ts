import { errors, formatDateTime } from "@mw/platform";
import { issueSiteApiKey, listSiteApiKeys, requireSite, revokeSiteApiKey } from "@mw/domains/sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";

const siteParams = z.object({ id: z.coerce.number().int().positive() });

const keyRow = z.object({
  id: z.number().int(),
  label: z.string(),
  key_prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

const exampleAt = "2026-11-20 10:15:00";
const exampleKey = { id: 4, label: "ERP", key_prefix: "mwk_8Glfzdpi", created_at: exampleAt, last_used_at: null, revoked_at: null };

/** Per-site API keys for order intake (spec 1, section 5): shown once, stored as SHA-256, revoked at once. */
export function apiKeyRoutes(api: ApiRouter, ctx: Pick<AppContext, "invalidation" | "logger" | "prisma">): void {
  api.route({
    method: "post",
    path: "/sites/:id/api-keys",
    summary: "Create an API key for a site; the key is in this answer only",
    tag: "sites",
    access: "manage_middleware",
    params: siteParams,
    body: z.object({ label: z.string().trim().min(1).max(100) }),
    status: 201,
    example: {
      request: { label: "ERP" },
      response: { ...exampleKey, key: "mwk_8Glfzdpiwrx3qQSWqruOxBvXd8OzujUvNFOvysJfXCA", message: "Store this key now: it cannot be shown again." },
    },
    responses: {
      201: {
        description: "The new key; it cannot be shown again",
        schema: keyRow.extend({ key: z.string(), message: z.string() }),
      },
      404: { description: "No such site" },
    },
    handler: async ({ params, body }) => {
      await requireSite(ctx, params.id);
      const { row, key } = await issueSiteApiKey(ctx, params.id, body.label);
      ctx.logger.info("site API key created", { site_id: params.id, key_id: row.id, label: row.label });
      return {
        id: row.id,
        label: row.label,
        key_prefix: row.key_prefix,
        created_at: formatDateTime(row.created_at)!,
        last_used_at: null,
        revoked_at: null,
        key,
        message: "Store this key now: it cannot be shown again.",
      };
    },
  });

  api.route({
    method: "get",
    path: "/sites/:id/api-keys",
    summary: "List a site's API keys (never the keys themselves)",
    tag: "sites",
    access: "manage_middleware",
    params: siteParams,
    query: pageQuery,
    example: { response: pageOf("api_keys", [{ ...exampleKey, last_used_at: exampleAt }], 1, { page: 1, per_page: 20 }) },
    responses: { 200: { description: "One page of keys, newest first", schema: pageSchema("api_keys", keyRow) } },
    handler: async ({ params, query }) => {
      await requireSite(ctx, params.id);
      const { total, rows } = await listSiteApiKeys(ctx, params.id, pageWindow(query));
      const keys = rows.map((row) => ({
        id: row.id,
        label: row.label,
        key_prefix: row.key_prefix,
        created_at: formatDateTime(row.created_at)!,
        last_used_at: formatDateTime(row.last_used_at),
        revoked_at: formatDateTime(row.revoked_at),
      }));
      return pageOf("api_keys", keys, total, query);
    },
  });

  api.route({
    method: "delete",
    path: "/sites/:id/api-keys/:keyId",
    summary: "Revoke an API key, effective on the next request",
    tag: "sites",
    access: "manage_middleware",
    params: siteParams.extend({ keyId: z.coerce.number().int().positive() }),
    example: { response: { success: true, message: "API key revoked." } },
    responses: {
      200: { description: "Revoked", schema: z.object({ success: z.literal(true), message: z.string() }) },
      404: { description: "No such key for this site" },
    },
    handler: async ({ params }) => {
      if (!(await revokeSiteApiKey(ctx, params.id, params.keyId))) throw errors.notFound("API key not found.");
      ctx.logger.info("site API key revoked", { site_id: params.id, key_id: params.keyId });
      return { success: true as const, message: "API key revoked." };
    },
  });
}
