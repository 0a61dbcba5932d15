import type { Connections } from "@mw/platform/connections";
import { totalByDay } from "@mw/platform/database";

/** A stored acquirer delivery as the dispute list shows it (its payload stays in the table). */
export interface AcquirerEventRow {
  id: number;
  event_type: string | null;
  event_id: string | null;
  received_at: Date;
  processed_at: Date | null;
  outcome: string | null;
}

/** Which deliveries a list shows: `outcomes` any of these (null: still open), received within `[received_from, received_before)`. */
export interface AcquirerEventFilter {
  outcomes?: (string | null)[];
  event_id?: string;
  received_from?: Date;
  received_before?: Date;
  /** Processing ended at or after this time (the operations page's failure windows). */
  processed_from?: Date;
}

/** The outcome filter, in webhook_events' columns or webhook_event_counts' (where `open` stands for processed_at null). */
function outcomeCondition<T>(filter: AcquirerEventFilter, openRows: T) {
  if (!filter.outcomes) return {};
  const outcomes = filter.outcomes.filter((outcome) => outcome !== null);
  return { OR: [...(outcomes.length ? [{ outcome: { in: outcomes } }] : []), ...(filter.outcomes.includes(null) ? [openRows] : [])] };
}

function where(filter: AcquirerEventFilter) {
  return {
    source: "acquirer",
    event_id: filter.event_id,
    received_at: filter.received_from || filter.received_before ? { gte: filter.received_from, lt: filter.received_before } : undefined,
    processed_at: filter.processed_from ? { gte: filter.processed_from } : undefined,
    ...outcomeCondition(filter, { processed_at: null }),
  };
}

/**
 * How many deliveries match: an event id or a processing time is counted from the rows (the event id's
 * unique index, the processed_at index); otherwise the kept counts of each day received are summed, and
 * only the pieces of days at the ends of a received range are counted.
 */
async function countAcquirerEvents(db: Connections["replica"], filter: AcquirerEventFilter): Promise<number> {
  const condition = where(filter);
  if (filter.event_id !== undefined || filter.processed_from) return db.webhookEvent.count({ where: condition });
  return totalByDay(
    { from: filter.received_from, before: filter.received_before },
    async (day) => (await db.webhookEventCount.aggregate({ _sum: { events: true }, where: { source: "acquirer", day, ...outcomeCondition(filter, { open: 1 }) } }))._sum.events,
    (part) => db.webhookEvent.count({ where: { ...condition, received_at: part } }),
  );
}

/** Every stored acquirer delivery (failed ones included), newest first, with how many match in all. */
export async function listAcquirerEvents(
  deps: Pick<Connections, "replica">,
  filter: AcquirerEventFilter,
  window: { skip: number; take: number },
): Promise<{ total: number; rows: AcquirerEventRow[] }> {
  const [total, rows] = await Promise.all([
    countAcquirerEvents(deps.replica, filter),
    deps.replica.webhookEvent.findMany({
      where: where(filter),
      select: { id: true, event_type: true, event_id: true, received_at: true, processed_at: true, outcome: true },
      orderBy: { id: "desc" },
      ...window,
    }),
  ]);
  return { total, rows };
}
