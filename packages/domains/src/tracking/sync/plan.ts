import type { SalesShipment } from "@mw/providers/erp";
import { isValidTrackingNumber, normaliseTrackingNumber } from "./tracking-numbers.ts";

/** Customer pickup: nothing travels, so there is nothing to track (spec 1, 4.7 rule 3). */
const EXCLUDED_CARRIERS = new Set(["CPU"]);

/** One tracking number of an order to put on the storefront. */
export interface PlannedTracking {
  /** Normalised (no spaces, upper case). */
  trackingNumber: string;
  /** The ERP carrier code, upper case; "" when the ERP names none. */
  erpCarrier: string;
  /** The platform's carrier code from the carrier mapping; null when the ERP code is not mapped. */
  platformCarrier: string | null;
  /** `YYYY-MM-DD`, "" when the ERP sends none. */
  shipmentDate: string;
  /** Item lines shipped under this number (SKU, quantity); empty when the ERP shipment lists none. */
  lines: { sku: string; quantity: number }[];
}

interface TrackingPlan {
  candidates: PlannedTracking[];
  /** ERP shipments with an excluded carrier. */
  skippedCarrier: number;
  /** ERP shipments whose tracking number is not a plausible one. */
  skippedInvalid: number;
}

/**
 * Spec 1, 4.7 rules 2 to 4 for one order's ERP shipments. A shipment without
 * a tracking number yet (no label) is simply not ready; two shipments under
 * one number are one parcel to the customer, so their lines are merged.
 */
export function planTrackings(shipments: SalesShipment[], carriers: ReadonlyMap<string, string>): TrackingPlan {
  const byNumber = new Map<string, PlannedTracking>();
  let skippedCarrier = 0;
  let skippedInvalid = 0;
  for (const shipment of shipments) {
    const erpCarrier = shipment.shippingAgentCode.trim().toUpperCase();
    if (EXCLUDED_CARRIERS.has(erpCarrier)) {
      skippedCarrier += 1;
      continue;
    }
    const trackingNumber = normaliseTrackingNumber(shipment.packageTrackingNo ?? "");
    if (trackingNumber === "") continue;
    if (!isValidTrackingNumber(trackingNumber)) {
      skippedInvalid += 1;
      continue;
    }
    const lines = shipment.salesShipmentLines.filter((line) => line.lineType === "Item" && line.quantity > 0).map((line) => ({ sku: line.lineObjectNumber, quantity: line.quantity }));
    const known = byNumber.get(trackingNumber);
    if (known) {
      known.lines.push(...lines);
      continue;
    }
    byNumber.set(trackingNumber, { trackingNumber, erpCarrier, platformCarrier: carriers.get(erpCarrier) ?? null, shipmentDate: shipment.shipmentDate ?? "", lines });
  }
  return { candidates: [...byNumber.values()], skippedCarrier, skippedInvalid };
}
