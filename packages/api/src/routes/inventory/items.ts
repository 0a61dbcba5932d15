import { formatDateTime } from "@mw/platform";
import { itemInput, listItems, MAX_ITEMS_PER_UPSERT, upsertItems } from "@mw/domains/inventory";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";

const itemRow = z.object({
  id: z.number().int(),
  sku: z.string(),
  name: z.string(),
  price: z.number(),
  stock: z.number().int(),
  updated_at: z.string(),
});

const pageExample = { total: 1, page: 1, per_page: 20, total_pages: 1 };

/** The item catalogue the ERP owns; order intake checks SKUs against it. */
export function itemRoutes(api: ApiRouter, ctx: Pick<AppContext, "logger" | "prisma">): void {
  api.route({
    method: "post",
    path: "/items",
    summary: "Create or update catalogue items by SKU (body: a JSON array of items)",
    tag: "items",
    access: "manage_middleware",
    body: z.array(itemInput).min(1).max(MAX_ITEMS_PER_UPSERT),
    responses: {
      200: {
        description: "Counts of new and updated SKUs",
        schema: z.object({ success: z.literal(true), created: z.number().int(), updated: z.number().int() }),
      },
    },
    example: {
      request: [
        { sku: "TEE-BLK-M", name: "T-shirt, black, M", price: 19.9, stock: 40 },
        { sku: "MUG-LOGO", name: "Mug with logo", price: 12.5, stock: 25 },
      ],
      response: { success: true, created: 1, updated: 1 },
    },
    handler: async ({ body }) => {
      const counts = await upsertItems(ctx, body);
      ctx.logger.info("items upserted", counts);
      return { success: true as const, ...counts };
    },
  });

  api.route({
    method: "get",
    path: "/items",
    summary: "List catalogue items by SKU",
    tag: "items",
    access: "manage_middleware",
    query: pageQuery.extend({ search: z.string().trim().min(1).max(64).optional().describe("substring of SKU or name") }),
    responses: { 200: { description: "One page of items", schema: pageSchema("items", itemRow) } },
    example: { response: { items: [{ id: 17, sku: "TEE-BLK-M", name: "T-shirt, black, M", price: 19.9, stock: 40, updated_at: "2026-11-20 10:15:00" }], ...pageExample } },
    handler: async ({ query }) => {
      const { total, rows } = await listItems(ctx, query.search, pageWindow(query));
      const items = rows.map((row) => ({
        id: row.id,
        sku: row.sku,
        name: row.name,
        price: Number(row.price),
        stock: row.stock,
        updated_at: formatDateTime(row.updated_at)!,
      }));
      return pageOf("items", items, total, query);
    },
  });
}
