import { AppError } from "@mw/platform/core";
import type { Prisma } from "@mw/platform/database";
import { ACCOUNT_KEYS, type SalesOrderInput, type SalesOrderLineInput } from "@mw/providers/erp";
import { ADDRESS_TYPE } from "./store.ts";

/** An order with everything the ERP is sent: its lines and both addresses. */
export type OrderWithDetails = Prisma.OrderGetPayload<{ include: { lines: true; addresses: true } }>;
type Address = OrderWithDetails["addresses"][number];

/** Coupons and store credit mean "this much off" whatever sign the submitter used (docs/erp-api.md). */
const CREDIT_KEYS = new Set<string>(["COUPON", "STORE CREDIT"]);

/** One of the order's addresses as the ERP's bill-to or ship-to fields, which differ only in their prefix. */
function erpAddress<P extends "billTo" | "shipTo">(prefix: P, address: Address) {
  const fields = {
    Name: `${address.first_name} ${address.last_name}`,
    Company: address.company ?? undefined,
    AddressLine1: address.address1,
    AddressLine2: address.address2 ?? undefined,
    City: address.city,
    State: address.state,
    PostCode: address.postal_code,
    Country: address.country,
  };
  return Object.fromEntries(Object.entries(fields).map(([field, value]) => [`${prefix}${field}`, value])) as {
    [F in keyof typeof fields as `${P}${F}`]: (typeof fields)[F];
  };
}

/** The order as an ERP sales order (docs/erp-api.md, "POST /salesOrders"): what the export sends and the read-back compares. */
export function toSalesOrder(order: OrderWithDetails): SalesOrderInput {
  const billing = order.addresses.find((a) => a.type === ADDRESS_TYPE.billing);
  const shipping = order.addresses.find((a) => a.type === ADDRESS_TYPE.shipping);
  if (!billing || !shipping) throw AppError.permanent(`order ${order.number} has no ${billing ? "shipping" : "billing"} address`, "order_incomplete");
  return {
    externalDocumentNumber: `${order.site_id}-${order.number}`,
    orderDate: order.dateadded.toISOString().slice(0, 10),
    customerNumber: String(order.contact_id),
    shippingAgentCode: order.shipping_agent_code,
    shippingAgentServiceCode: order.shipping_agent_service,
    externalTransactionId: order.trans_id ?? undefined,
    email: billing.email,
    phoneNumber: billing.phone ?? undefined,
    ...erpAddress("billTo", billing),
    ...erpAddress("shipTo", shipping),
    shipToPhoneNumber: shipping.phone ?? undefined,
    salesOrderLines: order.lines.map(toSalesOrderLine),
  };
}

function toSalesOrderLine(line: OrderWithDetails["lines"][number]): SalesOrderLineInput {
  const account = (ACCOUNT_KEYS as readonly string[]).includes(line.sku);
  const price = line.price.toNumber();
  return {
    sequence: line.line,
    lineType: account ? "Account" : "Item",
    lineObjectNumber: line.sku,
    quantity: line.quantity,
    unitPrice: CREDIT_KEYS.has(line.sku) ? -Math.abs(price) : price,
    discountAmount: line.discount_amount.toNumber(),
    description: line.coupon_code ?? undefined,
  };
}
