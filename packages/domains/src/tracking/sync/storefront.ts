import type { AppError } from "@mw/platform/core";
import type { PlannedTracking } from "./plan.ts";

/**
 * Orders worked on at once. Each order's requests stay in order; a few
 * orders in flight hide the storefront's latency, and a storefront that
 * finds it too much says so with 429s, which are waited out.
 */
export const ORDERS_AT_ONCE = 4;

/** A storefront order the tracking sync works on. */
export interface TrackingOrder {
  /** The storefront's order id (`shipment_records.platform_order_id`). */
  id: string;
  /** The number the order was pushed to us with (`orders.number`): the link to its ERP sales order. */
  number: string;
  /**
   * The storefront may already hold tracking numbers of this order that our
   * records do not know (posted by hand, or by a run that stopped before
   * recording): it is asked before a first post.
   */
  mayHaveTrackings: boolean;
}

/** The site settings of spec 1, 2.2 that shape a tracking run. */
export interface TrackingSettings {
  statusFilters: number[];
  autoComplete: boolean;
  sendCustomerEmail: boolean;
  /** storefront_a: only orders of this channel. */
  channelId: number | null;
}

/** What the tracking sync needs from one storefront platform (spec 1, 4.7 rules 1, 5, 6, 7). */
export interface TrackingStorefront<O extends TrackingOrder = TrackingOrder> {
  /**
   * `open`: orders whose status is in the site's status filters. `shipped`:
   * orders left shipped but not completed outside the filters, which the run
   * completes if it put their tracking there (storefront_a only).
   */
  listOrders(): Promise<{ open: O[]; shipped: O[] }>;
  /** The site's order with this number, whatever its status; null when the storefront has none. */
  findOrder(number: string): Promise<O | null>;
  /**
   * The id of what carries the tracking number on the storefront, or null
   * when it is not there in full (`post` then puts up what is missing). The
   * storefront is asked once per order and run.
   */
  findPosted(order: O, tracking: PlannedTracking): Promise<string | null>;
  /** Puts one tracking number on the order (what `findPosted` found missing of it); answers the id of what carries it. */
  post(order: O, tracking: PlannedTracking): Promise<string>;
  /** Tells the customer about a posted number; present only where the platform, as the site is set up, does not. */
  notify?(order: O, tracking: PlannedTracking): Promise<void>;
  /** Nothing is left to ship (after this run's posts). */
  fullyShipped(order: O): boolean;
  /** Auto-complete (spec 1, 3.4); answers the orders that could not be completed, with why. */
  complete(orders: O[]): Promise<Map<string, AppError>>;
}
