import { createHash } from "node:crypto";
import { isUniqueViolation, withTransaction, type PrismaClient, type SqlPool } from "../platform/db.ts";
import type { NormalisedAddress, NormalisedOrder } from "./submission.ts";

export const ADDRESS_TYPE = { billing: 1, shipping: 0 } as const;

export type StoreOutcome =
  | { kind: "created"; orderId: number }
  | { kind: "same"; orderId: number; imported: number }
  | { kind: "conflict"; orderId: number };

/** SHA-256 of the normalised order with sorted keys: equal content, equal hash. */
export function orderHash(order: NormalisedOrder): string {
  const canonical = JSON.stringify(order, (_key, value: unknown) =>
    value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
  return createHash("sha256").update(canonical).digest("hex");
}

function addressRow(type: number, address: NormalisedAddress) {
  return { type, ...address };
}

function paymentFlags(method: string) {
  const flags = { pay_1: "0", pay_2: "0", pay_3: "0", pay_4: "0", pay_5: "0", pay_6: "0" };
  flags[method as keyof typeof flags] = "1";
  return flags;
}

/** The order already stored for this site and number, judged against the new submission. */
async function existing(prisma: PrismaClient, siteId: number, number: string, hash: string): Promise<StoreOutcome | null> {
  const row = await prisma.order.findUnique({
    where: { site_id_number: { site_id: siteId, number } },
    select: { id: true, payload_hash: true, imported: true },
  });
  if (!row) return null;
  return row.payload_hash === hash ? { kind: "same", orderId: row.id, imported: row.imported } : { kind: "conflict", orderId: row.id };
}

/**
 * Stores the order, its lines and both addresses in one transaction: all or
 * nothing. It is the intake's hot path, so it writes through the driver pool
 * (three INSERTs), which costs a fraction of Prisma's CPU per order
 * (docs/decisions.md). The same order number for the same site again is
 * `same` when the content is identical (a client retry) and `conflict` when it
 * differs; the unique (site_id, number) index decides races between
 * concurrent submissions.
 */
export async function storeOrder(prisma: PrismaClient, sql: SqlPool, siteId: number, order: NormalisedOrder): Promise<StoreOutcome> {
  const hash = orderHash(order);
  // Optimistic: a resubmission is rare, so the unique index finds it instead of a read per order.
  try {
    const flags = paymentFlags(order.payment_method);
    const addresses = [addressRow(ADDRESS_TYPE.billing, order.billing), addressRow(ADDRESS_TYPE.shipping, order.shipping)];
    const orderId = await withTransaction(sql, async (conn) => {
      const inserted = (await conn.query(
        `INSERT INTO orders (site_id, number, trans_id, dateadded, payment_method, contact_id, shipping_agent_code,
           shipping_agent_service, fully_import_from_website, pay_1, pay_2, pay_3, pay_4, pay_5, pay_6, payload_hash, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, NOW(3), NOW(3))`,
        [siteId, order.number, order.trans_id, order.dateadded, order.payment_method, order.contact_id, order.shipping_agent_code,
          order.shipping_agent_service, flags.pay_1, flags.pay_2, flags.pay_3, flags.pay_4, flags.pay_5, flags.pay_6, hash],
      )) as { insertId: number };
      const id = inserted.insertId;
      await conn.query(
        `INSERT INTO order_addresses (order_id, type, first_name, last_name, company, address1, address2, city, state, postal_code, country, phone, email)
         VALUES ${addresses.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
        addresses.flatMap((a) => [id, a.type, a.first_name, a.last_name, a.company, a.address1, a.address2, a.city, a.state, a.postal_code, a.country, a.phone, a.email]),
      );
      await conn.query(
        `INSERT INTO order_lines (order_id, line, sku, quantity, price, coupon_code, discount_amount, weight)
         VALUES ${order.lines.map(() => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
        order.lines.flatMap((l) => [id, l.line, l.sku, l.quantity, l.price, l.coupon_code, l.discount_amount, l.weight]),
      );
      return id;
    });
    return { kind: "created", orderId };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const after = await existing(prisma, siteId, order.number, hash);
    if (!after) throw error;
    return after;
  }
}

/** Non-system SKUs of the order that the catalogue does not have, in order of first appearance. */
export async function unknownSkus(prisma: PrismaClient, skus: string[]): Promise<string[]> {
  const wanted = [...new Set(skus)];
  if (wanted.length === 0) return [];
  const found = await prisma.item.findMany({ where: { sku: { in: wanted } }, select: { sku: true } });
  // The column's collation compares case-insensitively; so does this.
  const known = new Set(found.map((item) => item.sku.toLowerCase()));
  return wanted.filter((sku) => !known.has(sku.toLowerCase()));
}
