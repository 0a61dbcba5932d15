import { addReview, jsonLdScript, listReviews, productMarkup, removeReview, reviewInput } from "@mw/domains/reviews";
import { errors, formatDateTime, formatDay } from "@mw/platform";
import { itemExists } from "@mw/domains/inventory";
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

async function requireItem(ctx: Pick<AppContext, "prisma">, id: number): Promise<void> {
  if (!(await itemExists(ctx, id))) throw errors.notFound("Item not found.");
}

const exampleReview = { id: 3, author: "Grace H.", rating: 5, title: "Fits well", body: "Soft and true to size.", date_published: "2026-11-18", created_at: "2026-11-20 10:15:00" };

/** Reviews per item and the schema.org markup they feed (spec 1, 4.4). */
export function reviewRoutes(api: ApiRouter, ctx: Pick<AppContext, "prisma">): void {
  api.route({
    method: "get",
    path: "/items/:id/schema-markup",
    summary: "HTML with one JSON-LD script: the item as a schema.org Product with its reviews and aggregate rating",
    tag: "items",
    access: "manage_middleware",
    params: itemId,
    example: {
      mediaType: "text/html",
      response: '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"T-shirt, black, M","sku":"TEE-BLK-M"}</script>',
    },
    responses: { 200: { description: "text/html: one <script type=\"application/ld+json\"> element" }, 404: { description: "No such item" } },
    handler: async ({ params }, _req, res) => {
      const product = await productMarkup(ctx, params.id);
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
    example: {
      request: { author: "Grace H.", rating: 5, title: "Fits well", body: "Soft and true to size.", date_published: "2026-11-18" },
      response: { id: 3, message: "Review added." },
    },
    responses: {
      201: { description: "The review's id", schema: z.object({ id: z.number().int(), message: z.string() }) },
      404: { description: "No such item" },
    },
    handler: async ({ params, body }) => {
      await requireItem(ctx, params.id);
      const review = await addReview(ctx, params.id, body);
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
    example: { response: pageOf("reviews", [exampleReview], 1, { page: 1, per_page: 20 }) },
    responses: { 200: { description: "One page of reviews", schema: pageSchema("reviews", reviewRow) }, 404: { description: "No such item" } },
    handler: async ({ params, query }) => {
      await requireItem(ctx, params.id);
      const { total, rows } = await listReviews(ctx, params.id, pageWindow(query));
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
    example: { response: { success: true, message: "Review deleted." } },
    responses: { 200: { description: "Removed", schema: z.object({ success: z.literal(true), message: z.string() }) }, 404: { description: "No such review of this item" } },
    handler: async ({ params }) => {
      if (!(await removeReview(ctx, params.id, params.reviewId))) throw errors.notFound("Review not found.");
      return { success: true as const, message: "Review removed." };
    },
  });
}
