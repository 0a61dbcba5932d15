import type { Connections } from "@mw/platform/connections";

/** What a redelivery needs of the first copy of its event. */
interface StoredEvent {
  id: number;
  event_id: string | null;
  processed_at: Date | null;
  outcome: string | null;
}

/** The stored delivery with this event id (the first copy of a redelivered event); null when there is none. */
export async function findWebhookEvent(deps: Pick<Connections, "prisma">, eventId: string): Promise<StoredEvent | null> {
  return deps.prisma.webhookEvent.findUnique({ where: { event_id: eventId }, select: { id: true, event_id: true, processed_at: true, outcome: true } });
}

/** A stored acquirer delivery by its row id or its event id; null when there is none. */
export async function findAcquirerEvent(deps: Pick<Connections, "prisma">, key: { id: number } | { event_id: string }): Promise<{ id: number; event_id: string | null } | null> {
  return deps.prisma.webhookEvent.findFirst({ where: { ...key, source: "acquirer" }, select: { id: true, event_id: true } });
}

interface ProductEventRow {
  site_id: number;
  event_type: string | null;
  event_id: string | null;
  payload: string;
  payload_hash: string;
  remote_addr: string | null;
  /** Null for a row whose follow-up is still to be queued (the outbox). */
  processed_at: Date | null;
  outcome: string;
}

/** Stores one product delivery; answers its id (a duplicate event_id fails with a unique violation). */
export async function storeProductEvent(deps: Pick<Connections, "prisma">, row: ProductEventRow): Promise<number> {
  const stored = await deps.prisma.webhookEvent.create({ data: { source: "products", ...row }, select: { id: true } });
  return stored.id;
}

/** Marks a delivery processed, unless something already did. */
export async function markWebhookProcessed(deps: Pick<Connections, "prisma">, id: number): Promise<void> {
  await deps.prisma.webhookEvent.updateMany({ where: { id, processed_at: null }, data: { processed_at: new Date() } });
}
