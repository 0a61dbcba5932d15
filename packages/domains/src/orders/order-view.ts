import { formatDateTime } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";
import { orderLifecycle, orderLifecycleFields, type OrderLifecycle } from "./lifecycle.ts";
import { encodeOrderCursor, findOrderDetail, listOrders, type OrderFilter, type OrderWindow, type OrderWithSite } from "./order-reads.ts";

/**
 * The admin order viewer (spec 1, 2.3 and 4.4): an order's named columns with
 * its lifecycle, as GET /orders, GET /orders/{id} and the console's order page
 * all show it (one shape, so they never disagree).
 */
function orderRowView(order: OrderWithSite, lifecycle: OrderLifecycle) {
  return {
    id: order.id,
    site: order.site_id,
    site_name: order.site.name,
    number: order.number,
    trans_id: order.trans_id,
    erp_sales_order_number: order.erp_sales_order_number,
    dateadded: formatDateTime(order.dateadded)!,
    payment_method: order.payment_method,
    imported: order.imported,
    verified: order.verified,
    ship_status: order.ship_status,
    fully_import_from_website: order.fully_import_from_website,
    pay_1: order.pay_1,
    pay_2: order.pay_2,
    pay_3: order.pay_3,
    pay_4: order.pay_4,
    pay_5: order.pay_5,
    pay_6: order.pay_6,
    ...orderLifecycleFields(lifecycle),
  };
}

/** One page of orders (newest first) with their lifecycles, as GET /orders and the console's order list show it. */
export async function orderListView(deps: Pick<Connections, "replica" | "queues">, filter: OrderFilter, window: OrderWindow) {
  const { total, rows, next } = await listOrders(deps, filter, window);
  const lifecycles = await Promise.all(rows.map((row) => orderLifecycle(deps, row)));
  return { total, orders: rows.map((row, i) => orderRowView(row, lifecycles[i]!)), next_cursor: next ? encodeOrderCursor(next) : null };
}

/** One order with its lifecycle, its line items (by line) and both addresses; null when there is none. */
export async function orderDetailView(deps: Pick<Connections, "prisma" | "queues">, id: number) {
  const order = await findOrderDetail(deps, id);
  if (!order) return null;
  return {
    ...orderRowView(order, await orderLifecycle(deps, order)),
    contact_id: order.contact_id,
    shipping_agent_code: order.shipping_agent_code,
    shipping_agent_service: order.shipping_agent_service,
    imported_at: formatDateTime(order.imported_at),
    created_at: formatDateTime(order.created_at)!,
    line_items: order.lines.map((line) => ({
      id: line.id,
      line: line.line,
      sku: line.sku,
      quantity: line.quantity,
      price: Number(line.price),
      coupon_code: line.coupon_code,
      discount_amount: Number(line.discount_amount),
      weight: Number(line.weight),
    })),
    addresses: order.addresses.map(({ order_id: _orderId, ...address }) => address),
  };
}
