import { randomUUID } from "node:crypto";

/**
 * One BigCommerce store as the fake keeps it: orders with their shipping
 * addresses, products and shipments, the catalogue with inventory, and what
 * a shopper or merchant would see happen (status e-mails, stock changes).
 * The HTTP side (test/fakes/storefront-a.ts) validates requests and calls in.
 */

export const STATUS_NAMES: Record<number, string> = {
  0: "Incomplete",
  1: "Pending",
  2: "Shipped",
  3: "Partially Shipped",
  4: "Refunded",
  5: "Cancelled",
  6: "Declined",
  7: "Awaiting Payment",
  8: "Awaiting Pickup",
  9: "Awaiting Shipment",
  10: "Completed",
  11: "Awaiting Fulfillment",
  12: "Manual Verification Required",
  13: "Disputed",
  14: "Partially Refunded",
};

export interface FakeOrderProduct {
  id: number;
  order_id: number;
  product_id: number;
  variant_id: number;
  order_address_id: number;
  name: string;
  sku: string;
  type: "physical" | "digital";
  quantity: number;
  quantity_shipped: number;
  /** Unit price before tax, as BigCommerce writes money: a string with four decimals. */
  price_ex_tax: string;
}

export interface FakeShipment {
  id: number;
  order_id: number;
  order_address_id: number;
  date_created: string;
  tracking_number: string;
  shipping_provider: string;
  tracking_carrier: string;
  items: { order_product_id: number; product_id: number; quantity: number }[];
}

export interface FakeOrderA {
  id: number;
  status_id: number;
  /** Moved on by every shipment and status change, as BigCommerce does. */
  date_modified: Date;
  channel_id: number;
  email: string;
  /** Shipping address ids (`order_address_id`). */
  addresses: number[];
  products: FakeOrderProduct[];
  shipments: FakeShipment[];
}

/** An e-mail BigCommerce sent the shopper (an order status notification carries the order's tracking numbers). */
export interface FakeEmailA {
  to: string;
  order_id: number;
  status_id: number;
  subject: string;
  tracking_numbers: string[];
}

export interface FakeVariant {
  id: number;
  product_id: number;
  sku: string;
  inventory_level: number;
}

export interface FakeProductA {
  id: number;
  name: string;
  sku: string;
  inventory_tracking: "none" | "product" | "variant";
  inventory_level: number;
  /** Every product has at least its base variant. */
  variants: FakeVariant[];
}

export interface FakeLineInput {
  sku: string;
  quantity: number;
  quantity_shipped?: number;
  /** Unit price before tax; default 10. */
  price?: number;
  type?: "physical" | "digital";
  /** Index into the order's shipping addresses; default the first. */
  address?: number;
}

let sequence = 1000;
const nextId = () => (sequence += 1);

export class FakeStoreData {
  readonly orders = new Map<number, FakeOrderA>();
  readonly emails: FakeEmailA[] = [];
  /** Statuses whose notification e-mail is on (Store Setup > Order Notifications). */
  orderEmailStatuses = new Set([2, 3, 10]);
  readonly products: FakeProductA[] = [];
  /** Inventory locations (BigCommerce's default location has id 1). */
  locations = new Set([1]);
  /** Every absolute adjustment applied, as sent. */
  readonly adjustments: { reason?: string; items: Record<string, number>[] }[] = [];
  /** The next this many requests are answered 429 with `X-Rate-Limit-Time-Reset-Ms: resetMs`. */
  throttle = { times: 0, resetMs: 50 };
  private nextOrderId = 100;

  addOrder(input: { id?: number; status_id?: number; channel_id?: number; email?: string; addresses?: number; date_modified?: Date; lines: FakeLineInput[] }): FakeOrderA {
    const id = input.id ?? this.nextOrderId++;
    const addresses = Array.from({ length: input.addresses ?? 1 }, () => nextId());
    const order: FakeOrderA = {
      id,
      status_id: input.status_id ?? 9,
      date_modified: input.date_modified ?? new Date(),
      channel_id: input.channel_id ?? 1,
      email: input.email ?? `shopper${id}@example.com`,
      addresses,
      shipments: [],
      products: input.lines.map((line) => ({
        id: nextId(),
        order_id: id,
        product_id: nextId(),
        variant_id: nextId(),
        order_address_id: addresses[line.address ?? 0]!,
        name: `Product ${line.sku}`,
        sku: line.sku,
        type: line.type ?? "physical",
        quantity: line.quantity,
        quantity_shipped: line.quantity_shipped ?? 0,
        price_ex_tax: (line.price ?? 10).toFixed(4),
      })),
    };
    this.orders.set(id, order);
    return order;
  }

  /** Records a shipment and moves the order to Shipped (all physical items shipped) or Partially Shipped, as BigCommerce does. */
  ship(order: FakeOrderA, shipment: Omit<FakeShipment, "id" | "order_id" | "date_created">): FakeShipment {
    const stored: FakeShipment = { id: nextId(), order_id: order.id, date_created: new Date().toUTCString(), ...shipment };
    for (const item of shipment.items) order.products.find((p) => p.id === item.order_product_id)!.quantity_shipped += item.quantity;
    order.shipments.push(stored);
    order.date_modified = new Date();
    const physical = order.products.filter((p) => p.type === "physical");
    this.setStatus(order, physical.every((p) => p.quantity_shipped >= p.quantity) ? 2 : 3);
    return stored;
  }

  setStatus(order: FakeOrderA, statusId: number): void {
    if (order.status_id === statusId) return;
    order.status_id = statusId;
    order.date_modified = new Date();
    if (!this.orderEmailStatuses.has(statusId)) return;
    this.emails.push({
      to: order.email,
      order_id: order.id,
      status_id: statusId,
      subject: `Your order #${order.id} is now ${STATUS_NAMES[statusId]}`,
      tracking_numbers: order.shipments.map((s) => s.tracking_number),
    });
  }

  /** A catalogue product; with `variants`, one variant per SKU (inventory tracked per variant unless said otherwise). */
  addProduct(input: { sku: string; inventory_tracking?: FakeProductA["inventory_tracking"]; inventory_level?: number; variants?: { sku: string; inventory_level?: number }[] }): FakeProductA {
    const id = nextId();
    const tracking = input.inventory_tracking ?? (input.variants ? "variant" : "product");
    const variants = input.variants
      ? input.variants.map((v) => ({ id: nextId(), product_id: id, sku: v.sku, inventory_level: v.inventory_level ?? 0 }))
      : [{ id: nextId(), product_id: id, sku: input.sku, inventory_level: input.inventory_level ?? 0 }];
    const level = tracking === "variant" ? variants.reduce((sum, v) => sum + v.inventory_level, 0) : (input.inventory_level ?? 0);
    const product: FakeProductA = { id, name: `Product ${input.sku}`, sku: input.sku, inventory_tracking: tracking, inventory_level: level, variants };
    this.products.push(product);
    return product;
  }

  /** The stock a shopper sees for a SKU: the product's level, or the variant's when tracked per variant. */
  stockOf(sku: string): number | undefined {
    for (const product of this.products) {
      if (product.inventory_tracking !== "variant" && product.sku === sku) return product.inventory_level;
      const variant = product.variants.find((v) => v.sku === sku);
      if (variant && product.inventory_tracking === "variant") return variant.inventory_level;
    }
    return undefined;
  }

  /**
   * Validates every item first, then applies them all (BigCommerce refuses the
   * whole request with 422 when one item is wrong). Answers the refusal, or null.
   */
  adjustAbsolute(reason: string | undefined, items: Record<string, number>[]): string | null {
    const unknownLocations = [...new Set(items.map((item) => item.location_id!).filter((id) => !this.locations.has(id)))];
    if (unknownLocations.length) return `Location not found, identities: [${unknownLocations.join(",")}]`;
    const targets: (() => void)[] = [];
    for (const item of items) {
      if (!Number.isInteger(item.quantity) || item.quantity! < 0) return "Quantity must be a non-negative integer";
      if (item.variant_id !== undefined) {
        const product = this.products.find((p) => p.variants.some((v) => v.id === item.variant_id));
        if (!product) return `[Item with variant_id ${item.variant_id} not found]`;
        if (product.inventory_tracking !== "variant") return `[Item with variant_id ${item.variant_id} is tracked by product, please update stock by product id]`;
        const variant = product.variants.find((v) => v.id === item.variant_id)!;
        targets.push(() => {
          variant.inventory_level = item.quantity!;
          product.inventory_level = product.variants.reduce((sum, v) => sum + v.inventory_level, 0);
        });
      } else if (item.product_id !== undefined) {
        const product = this.products.find((p) => p.id === item.product_id);
        if (!product) return `[Item with product_id ${item.product_id} not found]`;
        if (product.inventory_tracking !== "product") return `[Item with product_id ${item.product_id} is tracked by variant, please update stock by variant id]`;
        targets.push(() => (product.inventory_level = item.quantity!));
      } else {
        return "One of sku, product_id or variant_id is required";
      }
    }
    for (const apply of targets) apply();
    this.adjustments.push({ reason, items });
    return null;
  }

  transactionId(): string {
    return randomUUID();
  }
}
