import { itemNaming } from "../inventory/index.ts";
import { formatDay } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";

/** Reviews published in the markup: the newest ones; the aggregate rating still counts them all. */
const MARKUP_REVIEWS = 20;
const BEST = 5;
const WORST = 1;

type Fragment = Record<string, unknown>;

/** The schema.org `aggregateRating` fragment, computed from every review of the item; none without reviews. */
function aggregateRatingFragment(count: number, average: number | null): Fragment {
  if (count === 0 || average === null) return {};
  return {
    aggregateRating: { "@type": "AggregateRating", ratingValue: Math.round(average * 100) / 100, reviewCount: count, bestRating: BEST, worstRating: WORST },
  };
}

type ReviewRow = { author: string; rating: number; title: string | null; body: string; date_published: Date };

/** The schema.org `review` fragment: one Review per stored review, newest first. */
function reviewFragment(reviews: ReviewRow[]): Fragment {
  if (reviews.length === 0) return {};
  return {
    review: reviews.map((review) => ({
      "@type": "Review",
      author: { "@type": "Person", name: review.author },
      datePublished: formatDay(review.date_published),
      ...(review.title ? { name: review.title } : {}),
      reviewBody: review.body,
      reviewRating: { "@type": "Rating", ratingValue: review.rating, bestRating: BEST, worstRating: WORST },
    })),
  };
}

/** The item as a schema.org Product with its review and aggregate-rating fragments merged in; null for an unknown item. */
export async function productMarkup(deps: Pick<Connections, "prisma">, itemId: number): Promise<Fragment | null> {
  const [item, stats, reviews] = await Promise.all([
    itemNaming(deps, itemId),
    deps.prisma.itemReview.aggregate({ where: { item_id: itemId }, _count: { _all: true }, _avg: { rating: true } }),
    deps.prisma.itemReview.findMany({ where: { item_id: itemId }, orderBy: [{ date_published: "desc" }, { id: "desc" }], take: MARKUP_REVIEWS }),
  ]);
  if (!item) return null;
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: item.name,
    sku: item.sku,
    ...aggregateRatingFragment(stats._count._all, stats._avg.rating),
    ...reviewFragment(reviews),
  };
}

/** Characters that could end the script element or an HTML/JS context, as JSON escapes (still the same JSON value). */
const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

/** One `<script type="application/ld+json">` element; no value inside can close it. */
export function jsonLdScript(data: unknown): string {
  const json = JSON.stringify(data).replace(UNSAFE_IN_SCRIPT, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `<script type="application/ld+json">${json}</script>\n`;
}
