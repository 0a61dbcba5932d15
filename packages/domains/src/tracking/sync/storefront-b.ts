import { chunks, type AppError } from "@mw/platform/core";
import type { Logger } from "@mw/platform/logging";
import { type StorefrontBClient, MAX_BATCH_ITEMS, SHIPMENT_TRACKING_PLUGIN, TRACKING_ITEMS_META, trackingItem, wooStatuses, type StorefrontBOrder } from "@mw/providers/storefront-b";
import { z } from "zod";
import { batchRefusal } from "../../sites/index.ts";
import type { PlannedTracking } from "./plan.ts";
import type { TrackingOrder, TrackingSettings, TrackingStorefront } from "./storefront.ts";
import { normaliseTrackingNumber } from "./tracking-numbers.ts";


interface OrderB extends TrackingOrder {
  /** Tracking items the extension holds for the order (from its `_wc_shipment_tracking_items` meta); empty without the extension. */
  trackings: Map<string, string>;
  /** Without the extension: the tracking numbers the order's notes name, once `findPosted` has read them. */
  notes?: Map<string, string>;
}

/** The Shipment Tracking extension is active on the site (its system status lists it). */
export async function hasShipmentTracking(client: StorefrontBClient): Promise<boolean> {
  const status = await client.getSystemStatus();
  return (status.active_plugins ?? []).some((plugin) => plugin.plugin === SHIPMENT_TRACKING_PLUGIN);
}

/**
 * storefront_b (WooCommerce): a tracking item of the Shipment Tracking
 * extension when the site has it, else an order note carrying the tracking
 * number. Customer notification: a note is a customer note (WooCommerce
 * e-mails it) when send_customer_email is on, a private note when it is off.
 * With the extension, the tracking appears in WooCommerce's Completed order
 * e-mail, so a customer note is added only when auto-complete will not send
 * that e-mail. Auto-complete sets the status `completed` through the batch
 * endpoint, which fires the same hooks as a single update.
 */
export class StorefrontBTracking implements TrackingStorefront<OrderB> {
  readonly notify?: (order: OrderB, tracking: PlannedTracking) => Promise<void>;

  constructor(
    private readonly client: StorefrontBClient,
    private readonly settings: TrackingSettings,
    private readonly extension: boolean,
    private readonly log: Logger,
  ) {
    if (extension && settings.sendCustomerEmail && !settings.autoComplete) {
      this.notify = async (order, tracking) => void (await this.client.createNote(Number(order.id), { note: noteText(tracking), customer_note: true }));
    }
  }

  async listOrders(): Promise<{ open: OrderB[]; shipped: OrderB[] }> {
    const { statuses, unknown } = wooStatuses(this.settings.statusFilters);
    if (unknown.length) this.log.warn("status filters with no WooCommerce status are ignored", { status_codes: unknown });
    const orders = statuses.length ? await this.client.listOrders(statuses) : [];
    return { open: orders.map((order) => this.toOrder(order)), shipped: [] };
  }

  async findOrder(number: string): Promise<OrderB | null> {
    const order = await this.client.findOrder(number);
    return order && this.toOrder(order);
  }

  async findPosted(order: OrderB, tracking: PlannedTracking): Promise<string | null> {
    if (this.extension) return order.trackings.get(tracking.trackingNumber) ?? null;
    order.notes ??= await this.noteNumbers(order);
    return order.notes.get(tracking.trackingNumber) ?? null;
  }

  async post(order: OrderB, tracking: PlannedTracking): Promise<string> {
    const id = Number(order.id);
    if (!this.extension) return String((await this.client.createNote(id, { note: noteText(tracking), customer_note: this.settings.sendCustomerEmail })).id);
    const item = await this.client.createTracking(id, {
      tracking_number: tracking.trackingNumber,
      ...(tracking.platformCarrier && { tracking_provider: tracking.platformCarrier }),
      ...(tracking.shipmentDate && { date_shipped: tracking.shipmentDate }),
    });
    order.trackings.set(tracking.trackingNumber, item.tracking_id);
    return item.tracking_id;
  }

  fullyShipped(): boolean {
    return true;
  }

  async complete(orders: OrderB[]): Promise<Map<string, AppError>> {
    const failures = new Map<string, AppError>();
    for (const group of chunks(orders, MAX_BATCH_ITEMS)) {
      for (const result of await this.client.updateOrders(group.map((order) => ({ id: Number(order.id), status: "completed" })))) {
        if (result.error) failures.set(String(result.id), batchRefusal(`storefront_b refused to complete order ${result.id}: ${result.error}`));
      }
    }
    return failures;
  }

  private async noteNumbers(order: OrderB): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const note of await this.client.listNotes(Number(order.id))) {
      for (const [, number] of note.note.matchAll(NOTE_NUMBER)) found.set(normaliseTrackingNumber(number!), String(note.id));
    }
    return found;
  }

  private toOrder(order: StorefrontBOrder): OrderB {
    const trackings = new Map<string, string>();
    if (this.extension) {
      const meta = order.meta_data?.find((entry) => entry.key === TRACKING_ITEMS_META);
      const items = z.array(trackingItem).safeParse(meta?.value);
      for (const item of items.success ? items.data : []) trackings.set(normaliseTrackingNumber(item.tracking_number), item.tracking_id);
    }
    return { id: String(order.id), number: order.number, mayHaveTrackings: trackings.size > 0, trackings };
  }
}

/** How our notes name the tracking number, so a later run can find it. */
const NOTE_NUMBER = /Tracking number: ([A-Za-z0-9-]+)/g;

function noteText(tracking: PlannedTracking): string {
  return `Your order has shipped${tracking.platformCarrier ? ` via ${tracking.platformCarrier}` : ""}. Tracking number: ${tracking.trackingNumber}`;
}
