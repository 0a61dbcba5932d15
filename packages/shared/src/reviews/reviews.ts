import { z } from "zod";
import { formatDay, isoDay, type PrismaClient, utcDay } from "@mw/platform";

/** A customer review of an item (POST /items/{id}/reviews, cli review:add). */
export const reviewInput = z.object({
  author: z.string().trim().min(1).max(100),
  rating: z.number().int().min(1).max(5),
  title: z.string().trim().min(1).max(200).optional(),
  body: z.string().trim().min(1).max(10_000),
  /** Defaults to today (UTC). */
  date_published: isoDay.optional(),
});

export type ReviewInput = z.output<typeof reviewInput>;

export async function addReview(prisma: PrismaClient, itemId: number, input: ReviewInput) {
  return prisma.itemReview.create({
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
