import { forEachLimited, type AppError } from "@mw/platform/core";
import { type StorefrontAClient, ORDER_STATUS, type StorefrontAOrder, type StorefrontAShipment } from "@mw/providers/storefront-a";
import { isRefusal, orderProblem, partlyPosted } from "../../sites/index.ts";
import type { PlannedTracking } from "./plan.ts";
import { ORDERS_AT_ONCE, type TrackingOrder, type TrackingSettings, type TrackingStorefront } from "./storefront.ts";
import { normaliseTrackingNumber } from "./tracking-numbers.ts";

interface Line {
  /** `order_product_id`. */
  id: number;
  sku: string;
  addressId: number;
  /** Still to ship: quantity minus quantity shipped. */
  remaining: number;
}

/** A shipment on the order: BigCommerce's id, the address it goes to, its tracking number (normalised). */
interface Shipment {
  id: number;
  addressId: number;
  trackingNumber: string;
}

interface OrderA extends TrackingOrder {
  lines: Line[];
  /** The order's shipments, once `findPosted` has read them. */
  shipments?: Shipment[];
}

type ShipmentItems = Map<number, { order_product_id: number; quantity: number }[]>;

/** How far back Shipped orders are looked at for a completion a stopped run missed (a long worker outage included). */
const RECOVERY_DAYS = 7;

/**
 * storefront_a (BigCommerce): a shipment per tracking number on the order's
 * shipments resource, items matched by SKU, the carrier as BigCommerce's
 * `tracking_carrier` when mapped. BigCommerce moves the order to Partially
 * Shipped or Shipped itself and e-mails the shopper per the store's Order
 * Notifications settings (its API has no per-shipment switch); auto-complete
 * then moves Shipped (2) to Completed (10).
 */
export class StorefrontATracking implements TrackingStorefront<OrderA> {
  constructor(
    private readonly client: StorefrontAClient,
    private readonly settings: TrackingSettings,
  ) {}

  async listOrders(): Promise<{ open: OrderA[]; shipped: OrderA[] }> {
    const channelId = this.settings.channelId ?? undefined;
    const open: OrderA[] = [];
    for (const statusId of new Set(this.settings.statusFilters)) {
      open.push(...(await this.client.listOrders({ statusId, channelId, lineItems: true })).map(toOrder));
    }
    // A run that stopped between the shipment and the status change leaves the order at Shipped, outside the filters;
    // a shipment moves the order's modification date, so only recent Shipped orders can be such.
    const completeShipped = this.settings.autoComplete && !this.settings.statusFilters.includes(ORDER_STATUS.shipped);
    const modifiedSince = new Date(Date.now() - RECOVERY_DAYS * 86_400_000);
    const shipped = completeShipped ? (await this.client.listOrders({ statusId: ORDER_STATUS.shipped, channelId, modifiedSince, lineItems: false })).map(toOrder) : [];
    return { open, shipped };
  }

  /** BigCommerce's order number is its id; an order of another channel than the site's is not the site's. */
  async findOrder(number: string): Promise<OrderA | null> {
    if (!/^\d{1,10}$/.test(number)) return null;
    const order = await this.client.getOrder(Number(number));
    const channelId = this.settings.channelId;
    return order && (channelId === null || order.channel_id === channelId) ? toOrder(order) : null;
  }

  /**
   * One tracking number can be several shipments (one per address its items
   * go to); it is posted only when each address that still has items of it
   * to ship has its shipment. A post that stopped part-way is completed, not
   * taken as done.
   */
  async findPosted(order: OrderA, tracking: PlannedTracking): Promise<string | null> {
    order.shipments ??= (await this.client.listShipments(Number(order.id))).map((shipment) => ({
      id: shipment.id,
      addressId: shipment.order_address_id,
      trackingNumber: normaliseTrackingNumber(shipment.tracking_number),
    }));
    const carrying = carriers(order, tracking);
    return carrying.length && toShip(order, tracking).size === 0 ? carrying.map((shipment) => shipment.id).join(",") : null;
  }

  /**
   * One shipment per shipping address the items go to (a BigCommerce shipment
   * belongs to one address), skipping addresses that have theirs already.
   * Answers the ids of all of the number's shipments.
   */
  async post(order: OrderA, tracking: PlannedTracking): Promise<string> {
    const carrying = carriers(order, tracking);
    const ids = carrying.map((shipment) => shipment.id);
    const groups = toShip(order, tracking);
    const addresses = new Set(carrying.map((shipment) => shipment.addressId)).size + groups.size;
    if (groups.size === 0) {
      const skus = tracking.lines.map((line) => line.sku).join(", ") || "(none)";
      throw orderProblem(`order ${order.id}: nothing left to ship matches the ERP shipment of tracking number ${tracking.trackingNumber} (SKUs ${skus})`);
    }
    for (const [addressId, items] of groups) {
      let shipment: StorefrontAShipment;
      try {
        shipment = await this.client.createShipment(Number(order.id), {
          order_address_id: addressId,
          tracking_number: tracking.trackingNumber,
          shipping_provider: "",
          ...(tracking.platformCarrier && { tracking_carrier: tracking.platformCarrier }),
          items,
        });
      } catch (error) {
        if (ids.length === 0 || !isRefusal(error)) throw error;
        const done = addresses - groups.size + ids.length - carrying.length;
        throw partlyPosted(`order ${order.id}: tracking number ${tracking.trackingNumber} is on ${done} of its ${addresses} shipping addresses; the shipment to address ${addressId} was refused: ${error.message}`);
      }
      ids.push(shipment.id);
      order.shipments?.push({ id: shipment.id, addressId, trackingNumber: tracking.trackingNumber });
      for (const item of items) order.lines.find((line) => line.id === item.order_product_id)!.remaining -= item.quantity;
    }
    return ids.join(",");
  }

  fullyShipped(order: OrderA): boolean {
    return order.lines.every((line) => line.remaining <= 0);
  }

  /** One PUT per order (v2 has no batch update), a few at a time like the posts. */
  async complete(orders: OrderA[]): Promise<Map<string, AppError>> {
    const failures = new Map<string, AppError>();
    await forEachLimited(orders, ORDERS_AT_ONCE, async (order) => {
      try {
        await this.client.setOrderStatus(Number(order.id), ORDER_STATUS.completed);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        failures.set(order.id, error);
      }
    });
    return failures;
  }
}

function toOrder(order: StorefrontAOrder): OrderA {
  const lines = (order.consignments?.shipping ?? []).flatMap((consignment) =>
    consignment.line_items.map((product) => ({ id: product.id, sku: product.sku, addressId: product.order_address_id, remaining: product.quantity - product.quantity_shipped })),
  );
  const shippedSome = (order.consignments?.shipping ?? []).some((consignment) => consignment.line_items.some((product) => product.quantity_shipped > 0));
  return { id: String(order.id), number: String(order.id), mayHaveTrackings: shippedSome, lines };
}

/** The order's shipments carrying the tracking number (none known until `findPosted` read them). */
function carriers(order: OrderA, tracking: PlannedTracking): Shipment[] {
  return (order.shipments ?? []).filter((shipment) => shipment.trackingNumber === tracking.trackingNumber);
}

/** What is left to ship under `tracking`, by address, less the addresses that have a shipment of the number already. */
function toShip(order: OrderA, tracking: PlannedTracking): ShipmentItems {
  const groups = allocate(order, tracking);
  for (const shipment of carriers(order, tracking)) groups.delete(shipment.addressId);
  return groups;
}

/**
 * The order's items that ship under `tracking`, grouped by shipping address:
 * the ERP shipment's lines matched to order lines by SKU (case-insensitive),
 * up to what is left to ship. An ERP shipment that lists no items ships
 * whatever is left.
 */
function allocate(order: OrderA, tracking: PlannedTracking): ShipmentItems {
  const left = new Map(order.lines.map((line) => [line.id, line.remaining]));
  const take = (line: Line, wanted: number, into: ShipmentItems): number => {
    const quantity = Math.min(wanted, left.get(line.id)!);
    if (quantity <= 0) return 0;
    left.set(line.id, left.get(line.id)! - quantity);
    const items = into.get(line.addressId) ?? [];
    const existing = items.find((item) => item.order_product_id === line.id);
    if (existing) existing.quantity += quantity;
    else items.push({ order_product_id: line.id, quantity });
    into.set(line.addressId, items);
    return quantity;
  };
  const groups: ShipmentItems = new Map();
  if (tracking.lines.length === 0) {
    for (const line of order.lines) take(line, line.remaining, groups);
  } else {
    for (const wanted of tracking.lines) {
      let quantity = wanted.quantity;
      for (const line of order.lines.filter((l) => l.sku.toLowerCase() === wanted.sku.toLowerCase())) quantity -= take(line, quantity, groups);
    }
  }
  return groups;
}
