import { AppError, forEachLimited, groupBy } from "@mw/platform/core";
import type { Logger } from "@mw/platform/logging";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { markOrdersShipped, salesOrderNumbers } from "../../orders/index.ts";
import { ErpClient, erpNotConfigured, type SalesShipment } from "@mw/providers/erp";
import { carrierCodes, createdNothing, isRefusal, type Site, type TrackingCounts } from "../../sites/index.ts";
import {
  awaitsCompletion,
  claimTrackingNumber,
  confirmTrackingNumber,
  loadShipmentRecords,
  markCustomerNotified,
  markOrdersCompleted,
  releaseClaim,
  retakeStaleClaim,
  type ShipmentRecordRow,
} from "../shipment-records.ts";
import { planTrackings, type PlannedTracking } from "./plan.ts";
import { openTrackingStorefront } from "./open-storefront.ts";
import { ORDERS_AT_ONCE, type TrackingOrder, type TrackingStorefront } from "./storefront.ts";

/** What a tracking run uses: the database, the ERP (its token is cached in Redis), and the job's progress. */
export type TrackingRunDeps = Pick<Connections, "prisma" | "config" | "redis"> & Pick<JobRun, "progress">;

/** What the run learnt of its orders before working them. */
interface Known {
  /** Our order number to its ERP sales order (see salesOrderNumbers). */
  salesOrders: Map<string, string | null>;
  shipments: Map<string, SalesShipment[]>;
  records: Map<string, Map<string, ShipmentRecordRow>>;
}

/** Orders the run readied for completion, and the numbers of orders whose tracking is on the storefront. */
interface Outcome {
  toComplete: TrackingOrder[];
  withTracking: string[];
}

export interface OrderFailure {
  order_number: string;
  message: string;
}

/**
 * A claim older than this whose run never recorded the storefront's id
 * belongs to a run that stopped: a run takes it over, asks the storefront,
 * and posts what is not there. Younger claims are another run at work.
 */
const CLAIM_STALE_MS = 10 * 60_000;

/** One tracking sync of one site (spec 1, 4.7 rules 1 to 7). */
export class TrackingRun {
  readonly counts: TrackingCounts = {
    orders: 0,
    shipments_created: 0,
    already_posted: 0,
    skipped_carrier: 0,
    skipped_invalid: 0,
    unmapped_carrier: 0,
    not_linked: 0,
    not_exported: 0,
    awaiting_shipment: 0,
    claimed_by_other_run: 0,
    completed: 0,
    errors: 0,
  };
  readonly failures: OrderFailure[] = [];
  /** A re-push: numbers recorded as posted are looked for on the storefront rather than trusted. */
  private recheck = false;
  private erp: ErpClient | undefined;

  constructor(
    private readonly site: Site,
    private readonly ctx: TrackingRunDeps,
    private readonly log: Logger,
  ) {}

  /** Whether the ERP answered one of the run's calls (took our credentials). */
  get erpAnswered(): boolean {
    return this.erp?.answered ?? false;
  }

  async execute(): Promise<void> {
    const { erp, storefront, carriers } = await this.open();
    const { open, shipped } = once(await storefront.listOrders());
    this.counts.orders = open.length;
    this.log.info("storefront orders to look at", { orders: open.length, shipped_not_completed: shipped.length });

    const known = await this.knownOf(erp, open, [...open, ...shipped]);
    const outcome: Outcome = { toComplete: [], withTracking: [] };
    let done = 0;
    await forEachLimited(open, ORDERS_AT_ONCE, async (order) => {
      await this.workOrder(storefront, order, known, carriers, outcome);
      done += 1;
      await this.ctx.progress(done, open.length, "orders");
    });
    // Lanes finish in any order: the last word is the total.
    await this.ctx.progress(open.length, open.length, "orders");
    for (const order of shipped) if (awaitsCompletion(known.records.get(order.id)?.values() ?? [])) outcome.toComplete.push(order);
    await this.finish(storefront, outcome);
  }

  /**
   * The re-push of one order (`tracking-order-push`): the order as the
   * storefront has it now, whatever its status, and its numbers our records
   * call posted checked there too, so one removed from the storefront goes
   * back. False when the storefront has no such order for this site.
   */
  async executeOrder(number: string): Promise<boolean> {
    const { erp, storefront, carriers } = await this.open();
    const order = await storefront.findOrder(number);
    if (!order) return false;
    this.recheck = true;
    this.counts.orders = 1;
    const outcome: Outcome = { toComplete: [], withTracking: [] };
    await this.workOrder(storefront, order, await this.knownOf(erp, [order], [order]), carriers, outcome);
    await this.finish(storefront, outcome);
    return true;
  }

  private async open(): Promise<{ erp: ErpClient; storefront: TrackingStorefront; carriers: Map<string, string> }> {
    const erp = ErpClient.fromConfig(this.ctx.config, this.ctx.redis);
    if (!erp) throw erpNotConfigured();
    this.erp = erp;
    const storefront = await openTrackingStorefront(this.site, this.ctx.config, this.log);
    return { erp, storefront, carriers: await carrierCodes(this.ctx, this.site.platform) };
  }

  /** What is known of `open` orders' ERP side, and our records of `all` of them. */
  private async knownOf(erp: ErpClient, open: TrackingOrder[], all: TrackingOrder[]): Promise<Known> {
    const salesOrders = await salesOrderNumbers(this.ctx, this.site.id, open.map((order) => order.number));
    const exported = [...new Set(salesOrders.values())].filter((number): number is string => number !== null);
    const shipments = groupBy(await erp.listSalesShipments(exported), (shipment) => shipment.orderNumber);
    const records = await loadShipmentRecords(this.ctx, this.site.id, all.map((order) => order.id));
    return { salesOrders, shipments, records };
  }

  private async workOrder(storefront: TrackingStorefront, order: TrackingOrder, known: Known, carriers: Map<string, string>, outcome: Outcome): Promise<void> {
    const salesOrder = known.salesOrders.get(order.number);
    const orderShipments = salesOrder ? (known.shipments.get(salesOrder) ?? []) : [];
    if (salesOrder === undefined) this.counts.not_linked += 1;
    else if (salesOrder === null) this.counts.not_exported += 1;
    else if (!orderShipments.some((shipment) => shipment.packageTrackingNo?.trim())) this.counts.awaiting_shipment += 1;
    const orderRecords = known.records.get(order.id) ?? new Map<string, ShipmentRecordRow>();
    try {
      const { onStorefront, posted } = salesOrder ? await this.syncOrder(storefront, order, orderShipments, orderRecords, carriers) : { onStorefront: 0, posted: 0 };
      if (onStorefront > 0) outcome.withTracking.push(order.number);
      if (onStorefront > 0 && this.site.auto_complete && storefront.fullyShipped(order) && (posted || awaitsCompletion(orderRecords.values()))) outcome.toComplete.push(order);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      this.fail(order, error);
    }
  }

  /** Auto-completes what the run readied, and marks shipped the orders whose tracking is on the storefront. */
  private async finish(storefront: TrackingStorefront, { toComplete, withTracking }: Outcome): Promise<void> {
    const refused = await storefront.complete(toComplete);
    const completed = toComplete.filter((order) => !refused.has(order.id));
    for (const order of toComplete) if (refused.has(order.id)) this.fail(order, refused.get(order.id)!);
    await markOrdersCompleted(this.ctx, this.site.id, completed.map((order) => order.id));
    this.counts.completed = completed.length;
    await markOrdersShipped(this.ctx, this.site.id, withTracking);
  }

  /**
   * Puts the order's new tracking numbers on the storefront, each at most
   * once; answers how many of its tracking numbers are there now and how many
   * this run posted.
   */
  private async syncOrder(
    storefront: TrackingStorefront,
    order: TrackingOrder,
    shipments: SalesShipment[],
    records: Map<string, ShipmentRecordRow>,
    carriers: Map<string, string>,
  ): Promise<{ onStorefront: number; posted: number }> {
    const plan = planTrackings(shipments, carriers);
    this.counts.skipped_carrier += plan.skippedCarrier;
    this.counts.skipped_invalid += plan.skippedInvalid;
    let onStorefront = 0;
    let posted = 0;
    for (const tracking of plan.candidates) {
      const log = this.log.child({ order_id: order.id, order_number: order.number, tracking_number: tracking.trackingNumber });
      const record = records.get(tracking.trackingNumber);
      if (record?.platform_shipment_id) {
        if (!this.recheck || (await storefront.findPosted(order, tracking))) {
          this.counts.already_posted += 1;
          onStorefront += 1;
          if (record.notify_pending) await this.tellCustomer(storefront, order, tracking, log);
          continue;
        }
        log.info("tracking number recorded as posted is not on the storefront (removed there?); posting it again", { platform_shipment_id: record.platform_shipment_id });
      } else if (record && (Date.now() - record.created_at.getTime() < CLAIM_STALE_MS || !(await retakeStaleClaim(this.ctx, this.site.id, record)))) {
        log.info("tracking number is being posted by another run; left to it");
        this.counts.claimed_by_other_run += 1;
        continue;
      } else if (record || order.mayHaveTrackings) {
        const found = await storefront.findPosted(order, tracking);
        if (found) {
          // Our own claim: its run stopped after posting, before it could tell the customer.
          const notify = record !== undefined && storefront.notify !== undefined;
          await confirmTrackingNumber(this.ctx, this.site.id, order.id, tracking, found, notify);
          log.info("tracking number is on the storefront already; recorded", { platform_shipment_id: found });
          this.counts.already_posted += 1;
          onStorefront += 1;
          if (notify) await this.tellCustomer(storefront, order, tracking, log);
          continue;
        }
      }
      if (!record && !(await claimTrackingNumber(this.ctx, this.site.id, order.id, tracking))) {
        log.info("tracking number was claimed by another run; left to it");
        this.counts.claimed_by_other_run += 1;
        continue;
      }
      await this.post(storefront, order, tracking, log);
      onStorefront += 1;
      posted += 1;
    }
    return { onStorefront, posted };
  }

  private async post(storefront: TrackingStorefront, order: TrackingOrder, tracking: PlannedTracking, log: Logger): Promise<void> {
    let id: string;
    try {
      id = await storefront.post(order, tracking);
    } catch (error) {
      // A refusal of the whole post created nothing, so the claim goes. After a timeout or a dropped
      // connection the post may have landed, and after a refusal of part of it (storefront_a: one
      // address of several) some of it did: the claim stays for a later run to check against the storefront.
      if (createdNothing(error)) await releaseClaim(this.ctx, this.site.id, order.id, tracking.trackingNumber);
      throw error;
    }
    await confirmTrackingNumber(this.ctx, this.site.id, order.id, tracking, id, storefront.notify !== undefined);
    this.counts.shipments_created += 1;
    if (!tracking.platformCarrier) this.counts.unmapped_carrier += 1;
    log.info("tracking number posted", { platform_shipment_id: id, erp_carrier: tracking.erpCarrier, platform_carrier: tracking.platformCarrier });
    if (storefront.notify) await this.tellCustomer(storefront, order, tracking, log);
  }

  /**
   * The tracking is on the storefront whatever becomes of the customer's
   * note: a note that fails stays pending on the record and the next run
   * tries again (while the order is in the status filters). A site no longer
   * set up to notify drops it.
   */
  private async tellCustomer(storefront: TrackingStorefront, order: TrackingOrder, tracking: PlannedTracking, log: Logger): Promise<void> {
    try {
      await storefront.notify?.(order, tracking);
    } catch (error) {
      log.warn("the customer could not be told about the tracking number; the next run tries again", { error: (error as Error).message });
      return;
    }
    await markCustomerNotified(this.ctx, this.site.id, order.id, tracking.trackingNumber);
  }

  private fail(order: TrackingOrder, error: AppError): void {
    this.counts.errors += 1;
    this.failures.push({ order_number: order.number, message: error.message });
    this.log.error("order could not be synced", { order_id: order.id, order_number: order.number, error: error.message });
  }
}

/**
 * Each order once. An order read twice (it changed status while the lists
 * were read) would be worked twice and completed twice; the last read of an
 * open order is the freshest, and an open order is not also a shipped one.
 */
function once<O extends TrackingOrder>(lists: { open: O[]; shipped: O[] }): { open: O[]; shipped: O[] } {
  const open = new Map(lists.open.map((order) => [order.id, order]));
  return { open: [...open.values()], shipped: [...new Map(lists.shipped.filter((order) => !open.has(order.id)).map((order) => [order.id, order])).values()] };
}
