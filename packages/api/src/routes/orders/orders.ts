import { errors, formatDateTime, Prisma } from "@mw/platform";
import { PAYMENT_METHODS } from "@mw/shared/orders";
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

type OrderWithSite = Prisma.OrderGetPayload<{ include: { site: { select: { name: true } } } }>;

function listFields(order: OrderWithSite): z.infer<typeof orderRow> {
  return {
    id: order.id,
    site: order.site_id,
    site_name: order.site.name,
    number: order.number,
    trans_id: order.trans_id,
    erp_sales_order_number: order.erp_sales_order_number,
    dateadded: formatDateTime(order.dateadded)!,
    payment_method: order.payment_method,
    imported: order.imported,
    verified: order.verified,
    ship_status: order.ship_status,
    fully_import_from_website: order.fully_import_from_website,
    pay_1: order.pay_1,
    pay_2: order.pay_2,
    pay_3: order.pay_3,
    pay_4: order.pay_4,
    pay_5: order.pay_5,
    pay_6: order.pay_6,
  };
}

/** The admin order viewer (spec 1, 4.4). */
export function orderRoutes(api: ApiRouter, ctx: AppContext): void {
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
    }),
    responses: { 200: { description: "One page of orders", schema: pageSchema("orders", orderRow) } },
    handler: async ({ query }) => {
      const where: Prisma.OrderWhereInput = {
        site_id: query.site_id,
        imported: query.imported,
        payment_method: query.payment_method,
        ship_status: query.ship_status,
        ...(query.search
          ? {
              OR: [
                { number: { contains: query.search } },
                { erp_sales_order_number: { contains: query.search } },
                { trans_id: { contains: query.search } },
              ],
            }
          : {}),
      };
      const [total, rows] = await Promise.all([
        ctx.prisma.order.count({ where }),
        ctx.prisma.order.findMany({
          where,
          include: { site: { select: { name: true } } },
          orderBy: [{ dateadded: "desc" }, { id: "desc" }],
          ...pageWindow(query),
        }),
      ]);
      return pageOf("orders", rows.map(listFields), total, query);
    },
  });

  api.route({
    method: "get",
    path: "/orders/:id",
    summary: "One order with its line items (by line) and both addresses",
    tag: "orders",
    access: "manage_middleware",
    params: z.object({ id: z.coerce.number().int().positive() }),
    responses: { 200: { description: "The order", schema: orderDetail }, 404: { description: "No such order" } },
    handler: async ({ params }) => {
      const order = await ctx.prisma.order.findUnique({
        where: { id: params.id },
        include: {
          site: { select: { name: true } },
          lines: { orderBy: { line: "asc" } },
          addresses: { orderBy: { type: "desc" } },
        },
      });
      if (!order) throw errors.notFound("Order not found.");
      return {
        ...listFields(order),
        contact_id: order.contact_id,
        shipping_agent_code: order.shipping_agent_code,
        shipping_agent_service: order.shipping_agent_service,
        imported_at: formatDateTime(order.imported_at),
        created_at: formatDateTime(order.created_at)!,
        line_items: order.lines.map((line) => ({
          id: line.id,
          line: line.line,
          sku: line.sku,
          quantity: line.quantity,
          price: Number(line.price),
          coupon_code: line.coupon_code,
          discount_amount: Number(line.discount_amount),
          weight: Number(line.weight),
        })),
        addresses: order.addresses.map(({ order_id: _orderId, ...address }) => address),
      };
    },
  });
}
