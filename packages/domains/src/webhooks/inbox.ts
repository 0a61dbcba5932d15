import type { Connections } from "@mw/platform/connections";

/** Younger unprocessed rows may still be getting their job from the receiver that stored them. */
const INBOX_GRACE_MS = 30_000;
/** Older unprocessed rows are past automatic recovery: an operator replays them. */
const INBOX_HORIZON_MS = 24 * 3600_000;

/**
 * The rows of one source an inbox sweep (design section 3) looks at: not
 * processed yet, received between 24 hours and 30 seconds ago.
 */
function strandedWebhooks(source: "acquirer" | "products", now = Date.now()) {
  return { source, processed_at: null, received_at: { gte: new Date(now - INBOX_HORIZON_MS), lt: new Date(now - INBOX_GRACE_MS) } };
}

/** Acquirer deliveries the dispute inbox sweep looks at, oldest first. */
export async function strandedAcquirerEvents(deps: Pick<Connections, "prisma">, limit: number): Promise<{ id: number; event_id: string | null }[]> {
  return deps.prisma.webhookEvent.findMany({ where: strandedWebhooks("acquirer"), orderBy: { id: "asc" }, take: limit, select: { id: true, event_id: true } });
}

/** Product deliveries stored with `outcome` that the product inbox sweep looks at, oldest first. */
export async function strandedProductEvents(
  deps: Pick<Connections, "prisma">,
  outcome: string,
  limit: number,
): Promise<{ id: number; site_id: number | null; payload: string }[]> {
  return deps.prisma.webhookEvent.findMany({
    where: { ...strandedWebhooks("products"), outcome },
    orderBy: { id: "asc" },
    take: limit,
    select: { id: true, site_id: true, payload: true },
  });
}

const INBOX_SOURCES = ["acquirer", "products"] as const;

/**
 * Unprocessed rows past the sweep's horizon, per source: no sweep will touch
 * them again, so they are counted (on /metrics and in the sweep's log) for an
 * operator to replay, never silently left.
 */
export async function countAbandonedWebhooks(deps: Pick<Connections, "prisma">, now = Date.now()): Promise<Record<(typeof INBOX_SOURCES)[number], number>> {
  const groups = await deps.prisma.webhookEvent.groupBy({
    by: ["source"],
    where: { source: { in: [...INBOX_SOURCES] }, processed_at: null, received_at: { lt: new Date(now - INBOX_HORIZON_MS) } },
    _count: { _all: true },
  });
  const counts = { acquirer: 0, products: 0 };
  for (const group of groups) counts[group.source as keyof typeof counts] = group._count._all;
  return counts;
}
