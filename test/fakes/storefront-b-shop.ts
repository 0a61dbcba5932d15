/**
 * The WooCommerce shop behind FakeStorefrontB: orders with their notes and
 * Shipment Tracking items, products and variations with stock, and what a
 * shopper would see (the e-mails WooCommerce sends). The HTTP side
 * (test/fakes/storefront-b.ts) validates requests and calls in.
 */

export const ORDER_STATUSES = ["pending", "processing", "on-hold", "completed", "cancelled", "refunded", "failed", "checkout-draft"];

export interface FakeNote {
  id: number;
  author: string;
  date_created: string;
  note: string;
  customer_note: boolean;
}

export interface FakeTracking {
  tracking_id: string;
  tracking_provider: string;
  custom_tracking_provider: string;
  custom_tracking_link: string;
  tracking_number: string;
  date_shipped: string;
}

export interface FakeOrderB {
  id: number;
  number: string;
  status: string;
  email: string;
  line_items: { id: number; name: string; product_id: number; variation_id: number; quantity: number; sku: string; subtotal: string; total: string; price: number }[];
  /** Moved on by every change, as WooCommerce does (GMT). */
  date_modified: Date;
  notes: FakeNote[];
  trackings: FakeTracking[];
}

/** An e-mail WooCommerce sent the shopper: a customer note, or the Completed order e-mail (which the extension fills with the tracking items). */
export interface FakeEmailB {
  to: string;
  order_id: number;
  kind: "customer_note" | "completed_order";
  text: string;
  tracking_numbers: string[];
}

export interface FakeProductB {
  id: number;
  sku: string;
  type: "simple" | "variable" | "variation";
  parent_id: number;
  manage_stock: boolean | "parent";
  stock_quantity: number | null;
  variations: number[];
}

let sequence = 5000;
const label = (status: string) => status.charAt(0).toUpperCase() + status.slice(1).replace("-", " ");
const nextId = () => (sequence += 1);

export class FakeShopData {
  readonly orders = new Map<number, FakeOrderB>();
  readonly emails: FakeEmailB[] = [];
  readonly products = new Map<number, FakeProductB>();
  /** WooCommerce > Settings > Emails > Completed order. */
  completedEmail = true;
  /** The next this many requests are answered 429 with `Retry-After: retryAfterSeconds`. */
  throttle = { times: 0, retryAfterSeconds: 1 };
  /** The Shipment Tracking extension is active: its routes answer and it shows in the system status. */
  shipmentTracking = false;

  reset(): void {
    this.orders.clear();
    this.emails.length = 0;
    this.products.clear();
    this.completedEmail = true;
    this.throttle = { times: 0, retryAfterSeconds: 1 };
    this.shipmentTracking = false;
  }

  addOrder(input: { id?: number; number?: string; status?: string; email?: string; date_modified?: Date; lines: { sku: string; quantity: number; price?: number }[] }): FakeOrderB {
    const id = input.id ?? nextId();
    const order: FakeOrderB = {
      id,
      number: input.number ?? String(id),
      status: input.status ?? "processing",
      email: input.email ?? `shopper${id}@example.com`,
      line_items: input.lines.map((line) => {
        const price = line.price ?? 10;
        const subtotal = (price * line.quantity).toFixed(2);
        return { id: nextId(), name: `Product ${line.sku}`, product_id: nextId(), variation_id: 0, quantity: line.quantity, sku: line.sku, subtotal, total: subtotal, price };
      }),
      date_modified: input.date_modified ?? new Date(),
      notes: [],
      trackings: [],
    };
    this.orders.set(id, order);
    return order;
  }

  /** WooCommerce e-mails a customer note to the shopper at once. */
  addNote(order: FakeOrderB, note: string, customerNote: boolean): FakeNote {
    const stored: FakeNote = { id: nextId(), author: "WooCommerce", date_created: new Date().toISOString().slice(0, 19), note, customer_note: customerNote };
    order.notes.unshift(stored);
    if (customerNote) this.emails.push({ to: order.email, order_id: order.id, kind: "customer_note", text: note, tracking_numbers: this.trackingNumbers(order) });
    return stored;
  }

  addTracking(order: FakeOrderB, input: { tracking_number: string; tracking_provider?: string; custom_tracking_provider?: string; date_shipped?: string }): FakeTracking {
    const tracking: FakeTracking = {
      tracking_id: `${order.id}${nextId()}`.padEnd(32, "0").slice(0, 32),
      tracking_provider: (input.tracking_provider ?? "").toLowerCase(),
      custom_tracking_provider: input.custom_tracking_provider ?? "",
      custom_tracking_link: "",
      tracking_number: input.tracking_number,
      date_shipped: String(Math.floor(Date.parse(input.date_shipped ?? new Date().toISOString()) / 1000)),
    };
    order.trackings.push(tracking);
    return tracking;
  }

  /** A status change fires WooCommerce's hooks: completion sends the Completed order e-mail (when it is on). */
  setStatus(order: FakeOrderB, status: string): void {
    if (order.status === status) return;
    this.addNote(order, `Order status changed from ${label(order.status)} to ${label(status)}.`, false);
    order.status = status;
    order.date_modified = new Date();
    if (status === "completed" && this.completedEmail) {
      this.emails.push({ to: order.email, order_id: order.id, kind: "completed_order", text: `Your order #${order.number} is complete.`, tracking_numbers: this.trackingNumbers(order) });
    }
  }

  addProduct(input: { sku: string; manage_stock?: boolean; stock_quantity?: number | null; variations?: { sku: string; manage_stock?: boolean | "parent"; stock_quantity?: number | null }[] }): FakeProductB {
    const id = nextId();
    const product: FakeProductB = {
      id,
      sku: input.sku,
      type: input.variations ? "variable" : "simple",
      parent_id: 0,
      manage_stock: input.manage_stock ?? !input.variations,
      stock_quantity: input.stock_quantity ?? (input.manage_stock === false ? null : 0),
      variations: [],
    };
    this.products.set(id, product);
    for (const variation of input.variations ?? []) {
      const vid = nextId();
      this.products.set(vid, { id: vid, sku: variation.sku, type: "variation", parent_id: id, manage_stock: variation.manage_stock ?? true, stock_quantity: variation.stock_quantity ?? 0, variations: [] });
      product.variations.push(vid);
    }
    return product;
  }

  /** The stock a shopper sees for a SKU (a variation managed by its parent shows the parent's). */
  stockOf(sku: string): number | null | undefined {
    const product = [...this.products.values()].find((p) => p.sku === sku);
    if (!product) return undefined;
    return product.manage_stock === "parent" ? this.products.get(product.parent_id)!.stock_quantity : product.stock_quantity;
  }

  private trackingNumbers(order: FakeOrderB): string[] {
    return this.shipmentTracking ? order.trackings.map((t) => t.tracking_number) : [];
  }
}
