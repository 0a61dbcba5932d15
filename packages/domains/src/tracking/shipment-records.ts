import { chunks } from "@mw/platform/core";
import { isUniqueViolation } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";

type Deps = Pick<Connections, "prisma">;

/** A tracking number to post, as its record keeps it: normalised, with the ERP's carrier code ("" for none) and the platform's (null: not mapped). */
interface RecordedTracking {
  trackingNumber: string;
  erpCarrier: string;
  platformCarrier: string | null;
}

/**
 * Shipment records: one row per (site, storefront order, tracking number),
 * written *before* the tracking number is posted (a claim, with no
 * `platform_shipment_id`) and completed with the storefront's id after. The
 * unique key makes two runs racing on one number post it once; a claim left
 * without an id by a run that stopped mid-way tells the next run to ask the
 * storefront before posting again.
 */
export interface ShipmentRecordRow {
  platform_order_id: string;
  tracking_number: string;
  platform_shipment_id: string | null;
  order_completed_at: Date | null;
  notify_pending: boolean;
  created_at: Date;
}

/** Values per SQL `IN` list: the statement stays small whatever a site's size. */
const IN_LIST = 1000;

/** The site's records for these orders, by order id, then tracking number. */
export async function loadShipmentRecords(deps: Deps, siteId: number, orderIds: string[]): Promise<Map<string, Map<string, ShipmentRecordRow>>> {
  const byOrder = new Map<string, Map<string, ShipmentRecordRow>>();
  for (const ids of chunks(orderIds, IN_LIST)) {
    const rows = await deps.prisma.shipmentRecord.findMany({
      where: { site_id: siteId, platform_order_id: { in: ids } },
      select: { platform_order_id: true, tracking_number: true, platform_shipment_id: true, order_completed_at: true, notify_pending: true, created_at: true },
    });
    for (const row of rows) {
      const records = byOrder.get(row.platform_order_id) ?? new Map<string, ShipmentRecordRow>();
      records.set(row.tracking_number, row);
      byOrder.set(row.platform_order_id, records);
    }
  }
  return byOrder;
}

function key(siteId: number, orderId: string, trackingNumber: string) {
  return { site_id_platform_order_id_tracking_number: { site_id: siteId, platform_order_id: orderId, tracking_number: trackingNumber } };
}

function carrierColumns(tracking: RecordedTracking) {
  return { erp_carrier_code: tracking.erpCarrier.slice(0, 32) || null, platform_carrier_code: tracking.platformCarrier?.slice(0, 64) ?? null };
}

/** False when the number is claimed already: another run is posting it, or has. */
export async function claimTrackingNumber(deps: Deps, siteId: number, orderId: string, tracking: RecordedTracking): Promise<boolean> {
  try {
    await deps.prisma.shipmentRecord.create({ data: { site_id: siteId, platform_order_id: orderId, tracking_number: tracking.trackingNumber, ...carrierColumns(tracking) } });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * Takes over a claim that went stale (its run stopped), unless another run
 * did first: both read the same `created_at`, and only one can move it on.
 */
export async function retakeStaleClaim(deps: Deps, siteId: number, record: ShipmentRecordRow): Promise<boolean> {
  const { count } = await deps.prisma.shipmentRecord.updateMany({
    where: { site_id: siteId, platform_order_id: record.platform_order_id, tracking_number: record.tracking_number, platform_shipment_id: null, created_at: record.created_at },
    data: { created_at: new Date() },
  });
  return count === 1;
}

/**
 * The number is on the storefront as `platformId`: posted now, or found
 * there. `notifyPending`: the customer is yet to be told about it.
 */
export async function confirmTrackingNumber(deps: Deps, siteId: number, orderId: string, tracking: RecordedTracking, platformId: string, notifyPending: boolean): Promise<void> {
  const id = platformId.slice(0, 64);
  await deps.prisma.shipmentRecord.upsert({
    where: key(siteId, orderId, tracking.trackingNumber),
    create: { site_id: siteId, platform_order_id: orderId, tracking_number: tracking.trackingNumber, ...carrierColumns(tracking), platform_shipment_id: id, notify_pending: notifyPending },
    update: { platform_shipment_id: id, notify_pending: notifyPending },
  });
}

/** The customer was told about the number (or is no longer to be). */
export async function markCustomerNotified(deps: Deps, siteId: number, orderId: string, trackingNumber: string): Promise<void> {
  await deps.prisma.shipmentRecord.updateMany({ where: { site_id: siteId, platform_order_id: orderId, tracking_number: trackingNumber }, data: { notify_pending: false } });
}

/** The storefront refused the post and took none of it, so nothing exists to protect: the next run may try again. */
export async function releaseClaim(deps: Deps, siteId: number, orderId: string, trackingNumber: string): Promise<void> {
  await deps.prisma.shipmentRecord.deleteMany({ where: { site_id: siteId, platform_order_id: orderId, tracking_number: trackingNumber, platform_shipment_id: null } });
}

/** The run completed these orders: a later run completes them again only when it posts a new number (spec 1, 3.4). */
export async function markOrdersCompleted(deps: Deps, siteId: number, orderIds: string[]): Promise<void> {
  const now = new Date();
  for (const ids of chunks(orderIds, IN_LIST)) {
    await deps.prisma.shipmentRecord.updateMany({ where: { site_id: siteId, platform_order_id: { in: ids }, platform_shipment_id: { not: null } }, data: { order_completed_at: now } });
  }
}

/**
 * An order whose tracking we put on the storefront, that no run of ours has
 * completed since: a run stopped between posting and completing it. (An
 * order we completed that is open again was reopened on purpose.)
 */
export function awaitsCompletion(records: Iterable<ShipmentRecordRow>): boolean {
  return [...records].some((row) => row.platform_shipment_id !== null && row.order_completed_at === null);
}
