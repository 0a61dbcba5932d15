import { z } from "zod";
import { formatDay, isoDay, utcDay } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";

/** A customer review of an item (POST /items/{id}/reviews, cli review:add). */
export const reviewInput = z.object({
  author: z.string().trim().min(1).max(100),
  rating: z.number().int().min(1).max(5),
  title: z.string().trim().min(1).max(200).optional(),
  body: z.string().trim().min(1).max(10_000),
  /** Defaults to today (UTC). */
  date_published: isoDay.optional(),
});

type ReviewInput = z.output<typeof reviewInput>;

type Db = Pick<Connections, "prisma">;

export async function addReview(deps: Db, itemId: number, input: ReviewInput) {
  return deps.prisma.itemReview.create({
    data: {
      item_id: itemId,
      author: input.author,
      rating: input.rating,
      title: input.title ?? null,
      body: input.body,
      date_published: utcDay(input.date_published ?? formatDay(new Date())),
    },
  });
}

/** One page of the item's reviews, newest first. */
export async function listReviews(deps: Db, itemId: number, window: { skip: number; take: number }) {
  const where = { item_id: itemId };
  const [total, rows] = await Promise.all([
    deps.prisma.itemReview.count({ where }),
    deps.prisma.itemReview.findMany({ where, orderBy: [{ date_published: "desc" }, { id: "desc" }], ...window }),
  ]);
  return { total, rows };
}

/** Removes a review of the item (it leaves the markup at once); false when the item has no such review. */
export async function removeReview(deps: Db, itemId: number, reviewId: number): Promise<boolean> {
  const removed = await deps.prisma.itemReview.deleteMany({ where: { id: reviewId, item_id: itemId } });
  return removed.count > 0;
}
