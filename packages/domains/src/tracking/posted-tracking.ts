import type { Connections } from "@mw/platform/connections";

/** The tracking numbers the tracking sync put (or is putting) on one storefront order, in the order it did. */
export function postedTracking(deps: Pick<Connections, "prisma">, siteId: number, platformOrderId: string) {
  return deps.prisma.shipmentRecord.findMany({
    where: { site_id: siteId, platform_order_id: platformOrderId },
    select: { tracking_number: true, platform_shipment_id: true },
    orderBy: { id: "asc" },
  });
}
