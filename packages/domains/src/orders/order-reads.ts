import type { Connections, Prisma } from "@mw/platform";
import { orderStateWhere, type OrderStateFilter } from "./lifecycle.ts";
import type { PaymentMethod } from "./submission.ts";

type Db = Pick<Connections, "prisma">;

/** An order with its site's name. */
export type OrderWithSite = Prisma.OrderGetPayload<{ include: { site: { select: { name: true } } } }>;

/** The admin viewer's filters; absent members do not filter. */
export interface OrderFilter {
  site_id?: number;
  imported?: number;
  payment_method?: PaymentMethod;
  ship_status?: number;
  /** Where the order is in its life, as the table holds it (lifecycle.ts). */
  state?: OrderStateFilter;
  /** Failed at or after this time (the operations page's windows link here). */
  failed_since?: Date;
  /** A substring of the order number, the ERP sales order number or the transaction id. */
  search?: string;
}

/** One page of orders, newest first; from the replica (the viewer's list tolerates lag, the order itself does not). */
export async function listOrders(deps: Pick<Connections, "replica">, filter: OrderFilter, window: { skip: number; take: number }): Promise<{ total: number; rows: OrderWithSite[] }> {
  const { search } = filter;
  const where: Prisma.OrderWhereInput = {
    site_id: filter.site_id,
    imported: filter.imported,
    payment_method: filter.payment_method,
    ship_status: filter.ship_status,
    ...(filter.failed_since ? { failed_at: { gte: filter.failed_since } } : {}),
    ...(filter.state ? { AND: [orderStateWhere(filter.state)] } : {}),
    ...(search ? { OR: [{ number: { contains: search } }, { erp_sales_order_number: { contains: search } }, { trans_id: { contains: search } }] } : {}),
  };
  const [total, rows] = await Promise.all([
    deps.replica.order.count({ where }),
    deps.replica.order.findMany({ where, include: { site: { select: { name: true } } }, orderBy: [{ dateadded: "desc" }, { id: "desc" }], ...window }),
  ]);
  return { total, rows };
}

/** One order with its site's name, its lines by line number and its addresses (billing first); null when there is none. */
export function findOrderDetail(deps: Db, id: number) {
  return deps.prisma.order.findUnique({
    where: { id },
    include: { site: { select: { name: true } }, lines: { orderBy: { line: "asc" } }, addresses: { orderBy: { type: "desc" } } },
  });
}

/** The site's order of that number as far as the ERP is concerned; null when the site never sent it. */
export function findSiteOrder(deps: Db, siteId: number, number: string) {
  return deps.prisma.order.findUnique({
    where: { site_id_number: { site_id: siteId, number } },
    select: { id: true, erp_sales_order_number: true, ship_status: true },
  });
}

/** How many orders the site has. */
export function countSiteOrders(deps: Db, siteId: number): Promise<number> {
  return deps.prisma.order.count({ where: { site_id: siteId } });
}

/** The orders with this number (one per site; the first 20), for finding their jobs. */
export function ordersByNumber({ prisma }: Pick<Connections, "prisma">, number: string): Promise<{ id: number; site_id: number }[]> {
  return prisma.order.findMany({ where: { number }, select: { id: true, site_id: true }, take: 20 });
}
