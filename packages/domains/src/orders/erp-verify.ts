import { missingRow } from "@mw/platform/database";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { ErpClient, erpNotConfigured, type SalesOrder, type SalesOrderInput, type SalesOrderLine } from "@mw/providers/erp";
import { recordSyncErrorOnce } from "../sites/index.ts";
import { toSalesOrder } from "./erp-sales-order.ts";
import { findOrderWithDetails, markOrderFailed, markOrderVerified, VERIFY_SOURCE } from "./export-state.ts";

const money = (value: number) => value.toFixed(2);
/** Differences a sync error spells out: enough to act on, and the message stays whole within the errors table's limit. */
const LISTED_DIFFERENCES = 5;

/** Total the ERP computes for a document (docs/erp-api.md): quantity times unit price, less each line's discount. */
function documentTotal(lines: readonly { quantity: number; unitPrice: number; discountAmount: number }[]): number {
  return Math.round(lines.reduce((sum, line) => sum + line.quantity * line.unitPrice - line.discountAmount, 0) * 100) / 100;
}

/** Every way the ERP's copy differs from what we exported, each naming both values; empty when they agree. */
function differences(sent: SalesOrderInput, held: { order: SalesOrder; lines: SalesOrderLine[] }, salesOrderNumber: string): string[] {
  const found: string[] = [];
  if (held.order.number !== salesOrderNumber) found.push(`ERP number ${held.order.number} is not ${salesOrderNumber}`);
  if (held.order.externalDocumentNumber !== sent.externalDocumentNumber) {
    found.push(`ERP external document number ${held.order.externalDocumentNumber} is not ${sent.externalDocumentNumber}`);
  }
  const total = documentTotal(sent.salesOrderLines);
  if (money(held.order.totalAmountExcludingTax) !== money(total)) found.push(`ERP total ${money(held.order.totalAmountExcludingTax)} does not match the order total ${money(total)}`);
  const bySequence = new Map(held.lines.map((line) => [line.sequence, line]));
  for (const line of sent.salesOrderLines) {
    const erp = bySequence.get(line.sequence);
    bySequence.delete(line.sequence);
    if (!erp) {
      found.push(`line ${line.sequence} (${line.lineObjectNumber} x ${line.quantity}) is missing in the ERP`);
    } else if (erp.lineObjectNumber !== line.lineObjectNumber || erp.quantity !== line.quantity || money(erp.unitPrice) !== money(line.unitPrice)) {
      found.push(
        `line ${line.sequence}: ERP has ${erp.lineObjectNumber} x ${erp.quantity} at ${money(erp.unitPrice)}, the order ${line.lineObjectNumber} x ${line.quantity} at ${money(line.unitPrice)}`,
      );
    }
  }
  for (const extra of bySequence.values()) found.push(`line ${extra.sequence} (${extra.lineObjectNumber} x ${extra.quantity}) is in the ERP only`);
  return found;
}

/**
 * Reads an exported order back from the ERP (header and lines) and sets
 * `verified = 1` when the ERP holds its number, lines and total as sent; until
 * then the order counts as `pending_verify`. A mismatch is a sync error naming
 * both values, once, and the job completes: sending the order again would not
 * change what the ERP holds, an operator has to look. Reading fails like any
 * ERP call (transient errors retry).
 */
export async function verifyOrder(deps: Pick<Connections, "prisma" | "redis" | "config"> & Pick<JobRun, "log">, orderId: number) {
  const order = await findOrderWithDetails(deps, orderId);
  if (!order) throw missingRow(`order ${orderId}`, deps.config, "order_not_found");
  const log = deps.log.child({ order_id: order.id, order_number: order.number, site_id: order.site_id });
  if (order.verified === 1) {
    log.info("order already verified, nothing to do");
    return { skipped: "already_verified" };
  }
  if (order.imported !== 1 || !order.erp_sales_order_number) {
    log.info("order not exported yet, nothing to verify");
    return { skipped: "not_exported" };
  }
  const erp = ErpClient.fromConfig(deps.config, deps.redis);
  if (!erp) throw erpNotConfigured();
  const salesOrder = order.erp_sales_order_number;
  log.info("reading the sales order back from the ERP", { erp_sales_order_number: salesOrder });
  const held = await erp.readSalesOrder(salesOrder);
  const found = held ? differences(toSalesOrder(order), held, salesOrder) : [`ERP has no sales order ${salesOrder}`];
  if (found.length) {
    const more = found.length > LISTED_DIFFERENCES ? `; and ${found.length - LISTED_DIFFERENCES} more` : "";
    const message = `Order ${order.number} does not match ERP sales order ${salesOrder}: ${found.slice(0, LISTED_DIFFERENCES).join("; ")}${more}`;
    log.warn("ERP sales order does not match the order", { erp_sales_order_number: salesOrder, differences: found });
    // A read-back run again (its job id expired, an export job re-added) finds the same difference: operators see it once.
    await recordSyncErrorOnce(deps, { source: VERIFY_SOURCE, order_number: order.number, site_id: order.site_id, message });
    await markOrderFailed(deps, order.id, message);
    return { verified: false, differences: found };
  }
  await markOrderVerified(deps, order.id);
  log.info("order verified against the ERP", { erp_sales_order_number: salesOrder });
  return { verified: true, erp_sales_order_number: salesOrder };
}
