import type { Connections } from "@mw/platform/connections";

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

function where(filter: AcquirerEventFilter) {
  const outcomes = filter.outcomes?.filter((outcome) => outcome !== null) ?? [];
  const open = filter.outcomes?.includes(null) ?? false;
  return {
    source: "acquirer",
    event_id: filter.event_id,
    received_at: filter.received_from || filter.received_before ? { gte: filter.received_from, lt: filter.received_before } : undefined,
    processed_at: filter.processed_from ? { gte: filter.processed_from } : undefined,
    ...(filter.outcomes ? { OR: [...(outcomes.length ? [{ outcome: { in: outcomes } }] : []), ...(open ? [{ processed_at: null }] : [])] } : {}),
  };
}

/** Every stored acquirer delivery (failed ones included), newest first, with how many match in all. */
export async function listAcquirerEvents(
  deps: Pick<Connections, "replica">,
  filter: AcquirerEventFilter,
  window: { skip: number; take: number },
): Promise<{ total: number; rows: AcquirerEventRow[] }> {
  const condition = where(filter);
  const [total, rows] = await Promise.all([
    deps.replica.webhookEvent.count({ where: condition }),
    deps.replica.webhookEvent.findMany({
      where: condition,
      select: { id: true, event_type: true, event_id: true, received_at: true, processed_at: true, outcome: true },
      orderBy: { id: "desc" },
      ...window,
    }),
  ]);
  return { total, rows };
}
