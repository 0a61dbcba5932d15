import { chunks } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";

// What the tracking sync reads and writes of a site's orders.

/** Values per SQL `IN` list: the statement stays small whatever a site's size. */
const IN_LIST = 1000;

/**
 * Our order number to its ERP sales order number, for the site's orders among
 * `numbers`: null while the order is not exported yet. A number we never
 * received is absent.
 */
export async function salesOrderNumbers(deps: Pick<Connections, "prisma">, siteId: number, numbers: string[]): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  for (const group of chunks([...new Set(numbers)], IN_LIST)) {
    const rows = await deps.prisma.order.findMany({ where: { site_id: siteId, number: { in: group } }, select: { number: true, erp_sales_order_number: true } });
    for (const row of rows) found.set(row.number, row.erp_sales_order_number);
  }
  return found;
}

/** The site's orders among `numbers` have their tracking on the storefront: shipped (`ship_status` 1). */
export async function markOrdersShipped(deps: Pick<Connections, "prisma">, siteId: number, numbers: string[]): Promise<void> {
  for (const group of chunks(numbers, IN_LIST)) {
    await deps.prisma.order.updateMany({ where: { site_id: siteId, number: { in: group }, ship_status: 0 }, data: { ship_status: 1 } });
  }
}
