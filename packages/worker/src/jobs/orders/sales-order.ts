import type { Prisma } from "@mw/shared";
import { AppError } from "@mw/shared";
import { ACCOUNT_KEYS, type SalesOrderInput, type SalesOrderLineInput } from "@mw/shared/providers/erp";

export type OrderWithDetails = Prisma.OrderGetPayload<{ include: { lines: true; addresses: true } }>;
type Address = OrderWithDetails["addresses"][number];

const BILLING = 1;
const SHIPPING = 0;
/** Coupons and store credit mean "this much off" whatever sign the submitter used (docs/erp-api.md). */
const CREDIT_KEYS = new Set<string>(["COUPON", "STORE CREDIT"]);

/** The order as an ERP sales order (docs/erp-api.md, "POST /salesOrders"). */
export function toSalesOrder(order: OrderWithDetails): SalesOrderInput {
  const billing = order.addresses.find((a) => a.type === BILLING);
  const shipping = order.addresses.find((a) => a.type === SHIPPING);
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
    billToName: personName(billing),
    billToCompany: billing.company ?? undefined,
    billToAddressLine1: billing.address1,
    billToAddressLine2: billing.address2 ?? undefined,
    billToCity: billing.city,
    billToState: billing.state,
    billToPostCode: billing.postal_code,
    billToCountry: billing.country,
    shipToName: personName(shipping),
    shipToCompany: shipping.company ?? undefined,
    shipToAddressLine1: shipping.address1,
    shipToAddressLine2: shipping.address2 ?? undefined,
    shipToCity: shipping.city,
    shipToState: shipping.state,
    shipToPostCode: shipping.postal_code,
    shipToCountry: shipping.country,
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

function personName(address: Address): string {
  return `${address.first_name} ${address.last_name}`;
}
