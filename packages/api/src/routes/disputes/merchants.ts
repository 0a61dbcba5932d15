import { formatDateTime } from "@mw/platform";
import { createMerchant, deleteMerchant, listMerchants, merchantInput, updateMerchant, type MerchantView } from "@mw/domains/disputes";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";
import { idParams } from "../../http/route-schemas.ts";

const merchantRow = z.object({
  id: z.number().int(),
  mid: z.string().describe("without leading zeros"),
  name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

const at = "2026-11-20 10:15:00";
const merchantExample = { id: 2, mid: "12345", name: "Main MID", created_at: at, updated_at: at };
const pageExample = { total: 1, page: 1, per_page: 20, total_pages: 1 };

function view(row: MerchantView): z.infer<typeof merchantRow> {
  return { ...row, created_at: formatDateTime(row.created_at)!, updated_at: formatDateTime(row.updated_at)! };
}

/** Acquirer merchant ids and their gateway security keys (stored encrypted, never returned). */
export function merchantRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "logger" | "prisma">): void {
  const key = ctx.config.ENCRYPTION_KEY;

  api.route({
    method: "post",
    path: "/merchant-accounts",
    summary: "Add a merchant account (acquirer MID to gateway security key)",
    tag: "disputes",
    access: "manage_middleware",
    body: merchantInput,
    status: 201,
    responses: { 201: { description: "Created", schema: merchantRow }, 409: { description: "merchant_exists" } },
    example: { request: { mid: "12345", security_key: "<gateway security key>", name: "Main MID" }, response: merchantExample },
    handler: async ({ body }) => {
      const row = await createMerchant(ctx, key, body);
      ctx.logger.info("merchant account created", { merchant_id: row.id, mid: row.mid });
      return view(row);
    },
  });

  api.route({
    method: "get",
    path: "/merchant-accounts",
    summary: "List merchant accounts (never the security keys)",
    tag: "disputes",
    access: "manage_middleware",
    query: pageQuery,
    responses: { 200: { description: "One page", schema: pageSchema("merchant_accounts", merchantRow) } },
    example: { response: { merchant_accounts: [merchantExample], ...pageExample } },
    handler: async ({ query }) => {
      const { total, rows } = await listMerchants(ctx, pageWindow(query));
      return pageOf("merchant_accounts", rows.map(view), total, query);
    },
  });

  api.route({
    method: "put",
    path: "/merchant-accounts/:id",
    summary: "Change a merchant account; fields left out stay as they are",
    tag: "disputes",
    access: "manage_middleware",
    params: idParams,
    body: merchantInput.partial(),
    responses: { 200: { description: "Updated", schema: merchantRow }, 404: { description: "No such account" } },
    example: { request: { name: "Main MID (US)" }, response: { ...merchantExample, name: "Main MID (US)" } },
    handler: async ({ params, body }) => {
      const row = await updateMerchant(ctx, key, params.id, body);
      ctx.logger.info("merchant account updated", { merchant_id: row.id, fields: Object.keys(body) });
      return view(row);
    },
  });

  api.route({
    method: "delete",
    path: "/merchant-accounts/:id",
    summary: "Delete a merchant account",
    tag: "disputes",
    access: "manage_middleware",
    params: idParams,
    responses: { 200: { description: "Deleted", schema: z.object({ success: z.literal(true), message: z.string() }) } },
    example: { response: { success: true, message: "Merchant account deleted." } },
    handler: async ({ params }) => {
      await deleteMerchant(ctx, params.id);
      ctx.logger.info("merchant account deleted", { merchant_id: params.id });
      return { success: true as const, message: "Merchant account deleted." };
    },
  });
}
