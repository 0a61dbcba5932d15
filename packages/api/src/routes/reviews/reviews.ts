import { addReview, jsonLdScript, productMarkup, reviewInput } from "@mw/shared/reviews";
import { errors, formatDateTime, formatDay } from "@mw/platform";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";

const itemId = z.object({ id: z.coerce.number().int().positive() });

const reviewRow = z.object({
  id: z.number().int(),
  author: z.string(),
  rating: z.number().int(),
  title: z.string().nullable(),
  body: z.string(),
  date_published: z.string(),
  created_at: z.string(),
});

async function requireItem(ctx: AppContext, id: number): Promise<void> {
  if (!(await ctx.prisma.item.count({ where: { id } }))) throw errors.notFound("Item not found.");
}

/** Reviews per item and the schema.org markup they feed (spec 1, 4.4). */
export function reviewRoutes(api: ApiRouter, ctx: AppContext): void {
  api.route({
    method: "get",
    path: "/items/:id/schema-markup",
    summary: "HTML with one JSON-LD script: the item as a schema.org Product with its reviews and aggregate rating",
    tag: "items",
    access: "manage_middleware",
    params: itemId,
    responses: { 200: { description: "text/html: one <script type=\"application/ld+json\"> element" }, 404: { description: "No such item" } },
    handler: async ({ params }, _req, res) => {
      const product = await productMarkup(ctx.prisma, params.id);
      if (!product) throw errors.notFound("Item not found.");
      res.type("html").send(jsonLdScript(product));
      return undefined;
    },
  });

  api.route({
    method: "post",
    path: "/items/:id/reviews",
    summary: "Add a customer review to an item",
    tag: "items",
    access: "manage_middleware",
    params: itemId,
    body: reviewInput,
    status: 201,
    responses: {
      201: { description: "The review's id", schema: z.object({ id: z.number().int(), message: z.string() }) },
      404: { description: "No such item" },
    },
    handler: async ({ params, body }) => {
      await requireItem(ctx, params.id);
      const review = await addReview(ctx.prisma, params.id, body);
      return { id: review.id, message: "Review added." };
    },
  });

  api.route({
    method: "get",
    path: "/items/:id/reviews",
    summary: "An item's reviews, newest first",
    tag: "items",
    access: "manage_middleware",
    params: itemId,
    query: pageQuery,
    responses: { 200: { description: "One page of reviews", schema: pageSchema("reviews", reviewRow) }, 404: { description: "No such item" } },
    handler: async ({ params, query }) => {
      await requireItem(ctx, params.id);
      const where = { item_id: params.id };
      const [total, rows] = await Promise.all([
        ctx.prisma.itemReview.count({ where }),
        ctx.prisma.itemReview.findMany({ where, orderBy: [{ date_published: "desc" }, { id: "desc" }], ...pageWindow(query) }),
      ]);
      const reviews = rows.map((row) => ({
        id: row.id,
        author: row.author,
        rating: row.rating,
        title: row.title,
        body: row.body,
        date_published: formatDay(row.date_published),
        created_at: formatDateTime(row.created_at)!,
      }));
      return pageOf("reviews", reviews, total, query);
    },
  });

  api.route({
    method: "delete",
    path: "/items/:id/reviews/:reviewId",
    summary: "Remove a review (it leaves the markup at once)",
    tag: "items",
    access: "manage_middleware",
    params: z.object({ id: z.coerce.number().int().positive(), reviewId: z.coerce.number().int().positive() }),
    responses: { 200: { description: "Removed", schema: z.object({ success: z.literal(true), message: z.string() }) }, 404: { description: "No such review of this item" } },
    handler: async ({ params }) => {
      const removed = await ctx.prisma.itemReview.deleteMany({ where: { id: params.reviewId, item_id: params.id } });
      if (!removed.count) throw errors.notFound("Review not found.");
      return { success: true as const, message: "Review removed." };
    },
  });
}
