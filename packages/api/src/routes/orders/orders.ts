import { errors } from "@mw/platform";
import { decodeOrderCursor, ORDER_STATE_FILTERS, ORDER_STATES, orderDetailView, orderListView, PAYMENT_METHODS } from "@mw/domains/orders";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";

const flag = z.enum(["0", "1"]).transform(Number);

const orderRow = z.object({
  id: z.number().int(),
  site: z.number().int(),
  site_name: z.string(),
  number: z.string(),
  trans_id: z.string().nullable(),
  erp_sales_order_number: z.string().nullable(),
  dateadded: z.string(),
  payment_method: z.string(),
  imported: z.number().int(),
  verified: z.number().int(),
  ship_status: z.number().int(),
  fully_import_from_website: z.number().int(),
  pay_1: z.string(),
  pay_2: z.string(),
  pay_3: z.string(),
  pay_4: z.string(),
  pay_5: z.string(),
  pay_6: z.string(),
  state: z.enum(ORDER_STATES).describe("where the order is: pending, exporting, retrying, exported, verified, failed, skipped"),
  state_reason: z.string().nullable().describe("why: the failure, what skipped it, what it waits for"),
  next_attempt_at: z.string().nullable().describe("when the queue tries again (UTC)"),
  attempts: z.number().int().describe("attempts of the current job (export, then read-back)"),
  last_error: z.string().nullable(),
  job_id: z.string().nullable(),
  job_state: z.string().nullable(),
  job_url: z.string().nullable().describe("the job's Bull Board page"),
});

const lineRow = z.object({
  id: z.number().int(),
  line: z.number().int(),
  sku: z.string(),
  quantity: z.number().int(),
  price: z.number(),
  coupon_code: z.string().nullable(),
  discount_amount: z.number(),
  weight: z.number(),
});

const addressRow = z.object({
  id: z.number().int(),
  type: z.number().int().describe("1 billing, 0 shipping"),
  first_name: z.string(),
  last_name: z.string(),
  company: z.string().nullable(),
  address1: z.string(),
  address2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  postal_code: z.string(),
  country: z.string(),
  phone: z.string().nullable(),
  email: z.string(),
});

const orderDetail = orderRow.extend({
  contact_id: z.number().int(),
  shipping_agent_code: z.string(),
  shipping_agent_service: z.string(),
  imported_at: z.string().nullable(),
  created_at: z.string(),
  line_items: z.array(lineRow),
  addresses: z.array(addressRow),
});

const exampleOrder = {
  id: 812,
  site: 1,
  site_name: "Main shop",
  number: "100045",
  trans_id: "TX-778899",
  erp_sales_order_number: "SO-100001",
  dateadded: "2026-11-20 00:00:00",
  payment_method: "pay_1",
  imported: 1,
  verified: 1,
  ship_status: 0,
  fully_import_from_website: 1,
  pay_1: "1",
  pay_2: "0",
  pay_3: "0",
  pay_4: "0",
  pay_5: "0",
  pay_6: "0",
  state: "verified" as const,
  state_reason: null,
  next_attempt_at: null,
  attempts: 1,
  last_error: null,
  job_id: "order-verify.812",
  job_state: "completed",
  job_url: "/admin/queues/queue/orders/order-verify.812",
};
const exampleAddress = { first_name: "Ada", last_name: "Lovelace", company: null, address1: "1 Analytical Way", address2: null, city: "Springfield", state: "IL", postal_code: "62701", country: "US", phone: "555-0100", email: "ada@example.com" };

/** The admin order viewer (spec 1, 4.4). */
export function orderRoutes(api: ApiRouter, ctx: Pick<AppContext, "prisma" | "queues" | "replica">): void {
  api.route({
    method: "get",
    path: "/orders",
    summary: "List orders, newest first",
    tag: "orders",
    access: "manage_middleware",
    query: pageQuery.extend({
      site_id: z.coerce.number().int().positive().optional(),
      imported: flag.optional().describe("0 pending, 1 exported"),
      payment_method: z.enum(PAYMENT_METHODS).optional(),
      ship_status: flag.optional().describe("0 not shipped, 1 shipped"),
      search: z.string().trim().min(1).max(50).optional().describe("substring of order number, ERP sales order number or transaction id"),
      state: z.enum(ORDER_STATE_FILTERS).optional().describe("pending (not exported nor failed: exporting, retrying and skipped rows too), exported, verified or failed"),
      failed_since: z.coerce.date().optional().describe("failed at or after this time (ISO 8601)"),
      cursor: z
        .string()
        .max(64)
        .optional()
        .describe("next_cursor of the page before: the next page, as fast deep in the list as at its start (page is then not used)"),
    }),
    example: { response: { ...pageOf("orders", [exampleOrder], 1, { page: 1, per_page: 20 }), next_cursor: null } },
    responses: {
      200: {
        description: "One page of orders",
        schema: pageSchema("orders", orderRow).extend({
          next_cursor: z.string().nullable().describe("pass as cursor for the page after this one; null on the last page"),
        }),
      },
      400: { description: "A cursor this API did not hand out" },
    },
    handler: async ({ query }) => {
      const { cursor, page: _page, per_page: _perPage, ...filter } = query;
      const after = cursor === undefined ? undefined : decodeOrderCursor(cursor);
      if (after === null) throw errors.invalidInput("cursor is not a next_cursor this API handed out");
      const { total, orders, next_cursor } = await orderListView(ctx, filter, { ...pageWindow(query), after });
      return { ...pageOf("orders", orders, total, query), next_cursor };
    },
  });

  api.route({
    method: "get",
    path: "/orders/:id",
    summary: "One order with its line items (by line) and both addresses",
    tag: "orders",
    access: "manage_middleware",
    params: z.object({ id: z.coerce.number().int().positive() }),
    example: {
      response: {
        ...exampleOrder,
        contact_id: 27111,
        shipping_agent_code: "FEDEX",
        shipping_agent_service: "GROUND_HOME_DELIVERY",
        imported_at: "2026-11-20 10:15:03",
        created_at: "2026-11-20 10:15:00",
        line_items: [
          { id: 4411, line: 1, sku: "TEE-BLK-M", quantity: 2, price: 19.9, coupon_code: null, discount_amount: 0, weight: 0 },
          { id: 4412, line: 2, sku: "SHIPPING", quantity: 1, price: 4.95, coupon_code: null, discount_amount: 0, weight: 0 },
        ],
        addresses: [
          { id: 1622, type: 1, ...exampleAddress },
          { id: 1623, type: 0, ...exampleAddress },
        ],
      },
    },
    responses: { 200: { description: "The order", schema: orderDetail }, 404: { description: "No such order" } },
    handler: async ({ params }) => {
      const order = await orderDetailView(ctx, params.id);
      if (!order) throw errors.notFound("Order not found.");
      return order;
    },
  });
}
