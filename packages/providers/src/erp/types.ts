/** Wire types of the ERP API (docs/erp-api.md), Business Central v2.0 style. */

export type SalesOrderLineType = "Item" | "Account";

/** The system SKUs of spec 1, 2.1: sent as `Account` lines keyed by the SKU itself. */
export const ACCOUNT_KEYS = ["COUPON", "SHIPPING", "SALES TAX", "STORE CREDIT"] as const;

export interface SalesOrderLineInput {
  sequence: number;
  lineType: SalesOrderLineType;
  lineObjectNumber: string;
  quantity: number;
  unitPrice: number;
  discountAmount: number;
  description?: string;
}

export interface SalesOrderInput {
  externalDocumentNumber: string;
  orderDate: string;
  customerNumber: string;
  shippingAgentCode: string;
  shippingAgentServiceCode: string;
  externalTransactionId?: string;
  email: string;
  phoneNumber?: string;
  billToName: string;
  billToCompany?: string;
  billToAddressLine1: string;
  billToAddressLine2?: string;
  billToCity: string;
  billToState: string;
  billToPostCode: string;
  billToCountry: string;
  shipToName: string;
  shipToCompany?: string;
  shipToAddressLine1: string;
  shipToAddressLine2?: string;
  shipToCity: string;
  shipToState: string;
  shipToPostCode: string;
  shipToCountry: string;
  shipToPhoneNumber?: string;
  salesOrderLines: SalesOrderLineInput[];
}

/** A sales order as the ERP answers it (header only; lines are not echoed). */
export type SalesOrder = Omit<SalesOrderInput, "salesOrderLines"> & {
  id: string;
  /** The ERP sales order number, stored as the order's `erp_sales_order_number`. */
  number: string;
  status: string;
  totalAmountExcludingTax: number;
  lastModifiedDateTime: string;
};

/** A line of a sales order as the ERP holds it (`GET /salesOrders({id})/salesOrderLines`). */
export type SalesOrderLine = SalesOrderLineInput & {
  id: string;
  /** The sales order's `id`. */
  documentId: string;
};

export interface ODataCollection<T> {
  value: T[];
  "@odata.nextLink"?: string;
}

export interface ErpErrorBody {
  error: { code: string; message: string };
}

/** A shipped line of a sales shipment; `lineObjectNumber` is our SKU on `Item` lines. */
export interface SalesShipmentLine {
  sequence: number;
  lineType: SalesOrderLineType;
  lineObjectNumber: string;
  quantity: number;
}

/** A posted sales shipment (docs/erp-api.md, "Sales shipments"). */
export interface SalesShipment {
  id: string;
  number: string;
  /** The ERP sales order number (our `erp_sales_order_number`). */
  orderNumber: string;
  externalDocumentNumber: string;
  shipmentDate: string;
  /** ERP carrier code, e.g. `UPS`, or `CPU` for customer pickup. */
  shippingAgentCode: string;
  /** Empty until the carrier label exists. */
  packageTrackingNo: string;
  salesShipmentLines: SalesShipmentLine[];
}

/** An item with its stock (docs/erp-api.md, "Items"). */
export interface ErpItem {
  id: string;
  /** Item number = our SKU. */
  number: string;
  displayName: string;
  unitPrice: number;
  /** Quantity available to sell. */
  inventory: number;
  lastModifiedDateTime: string;
}
