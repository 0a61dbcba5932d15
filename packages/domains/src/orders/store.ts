import { createHash } from "node:crypto";
import type { PoolConnection } from "mariadb";
import { Batcher, type BatchItem } from "@mw/platform/core";
import { isDeadlock, isUniqueViolation, type PrismaClient, type SqlPool } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";
import type { NormalisedAddress, NormalisedOrder } from "./submission.ts";

export const ADDRESS_TYPE = { billing: 1, shipping: 0 } as const;

type StoreOutcome =
  | { kind: "created"; orderId: number }
  | { kind: "same"; orderId: number; imported: number }
  | { kind: "conflict"; orderId: number };

/**
 * Each object shape's keys in their canonical order (localeCompare, as stored
 * hashes were made with). An order has a handful of shapes, so they are
 * sorted once per process rather than once per object.
 */
const canonicalKeys = new Map<string, string[]>();

function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  const shape = keys.join("\u0000");
  let sorted = canonicalKeys.get(shape);
  if (!sorted) {
    sorted = [...keys].sort((a, b) => a.localeCompare(b));
    // Shapes come from our own normalised types; the bound only guards against a surprise.
    if (canonicalKeys.size < 1000) canonicalKeys.set(shape, sorted);
  }
  return sorted;
}

/** SHA-256 of the normalised order with sorted keys: equal content, equal hash. */
export function orderHash(order: NormalisedOrder): string {
  const canonical = JSON.stringify(order, (_key, value: unknown) => {
    if (!value || typeof value !== "object" || Array.isArray(value) || value instanceof Date) return value;
    const sorted: Record<string, unknown> = {};
    for (const key of sortedKeys(value)) sorted[key] = (value as Record<string, unknown>)[key];
    return sorted;
  });
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

interface ToStore {
  siteId: number;
  order: NormalisedOrder;
  hash: string;
}

const ORDER_COLUMNS = `site_id, number, trans_id, dateadded, payment_method, contact_id, shipping_agent_code, shipping_agent_service,
  fully_import_from_website, pay_1, pay_2, pay_3, pay_4, pay_5, pay_6, payload_hash, created_at, updated_at`;
const ORDER_ROW = "(?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, NOW(3), NOW(3))";
const ADDRESS_ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
const LINE_ROW = "(?, ?, ?, ?, ?, ?, ?, ?)";

function orderValues({ siteId, order, hash }: ToStore): unknown[] {
  const flags = paymentFlags(order.payment_method);
  return [siteId, order.number, order.trans_id, order.dateadded, order.payment_method, order.contact_id, order.shipping_agent_code,
    order.shipping_agent_service, flags.pay_1, flags.pay_2, flags.pay_3, flags.pay_4, flags.pay_5, flags.pay_6, hash];
}

function addressValues(orderId: number, { order }: ToStore): unknown[] {
  return [addressRow(ADDRESS_TYPE.billing, order.billing), addressRow(ADDRESS_TYPE.shipping, order.shipping)].flatMap((a) => [
    orderId, a.type, a.first_name, a.last_name, a.company, a.address1, a.address2, a.city, a.state, a.postal_code, a.country, a.phone, a.email,
  ]);
}

function lineValues(orderId: number, { order }: ToStore): unknown[] {
  return order.lines.flatMap((l) => [orderId, l.line, l.sku, l.quantity, l.price, l.coupon_code, l.discount_amount, l.weight]);
}

/**
 * Group commit for orders, as the acquirer receiver has for its rows
 * (GroupInsert): orders that arrive while earlier ones are being written go
 * together in one transaction of six statements whatever their number (see
 * `pipeline`), so a batch costs two round trips and one log flush. If any statement of a batch fails, the batch is rolled back and each
 * order is written again alone, where a duplicate number is told apart from
 * an error: an order's rows are keyed by the id its own INSERT got, so they
 * must never commit after that INSERT failed.
 */
class OrderWriter {
  private readonly batcher: Batcher<ToStore, StoreOutcome>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql: SqlPool,
  ) {
    this.batcher = new Batcher({ concurrency: 2, maxBatch: 50 }, (batch) => this.write(batch));
  }

  store(item: ToStore): Promise<StoreOutcome> {
    return this.batcher.add(item);
  }

  private async write(batch: BatchItem<ToStore, StoreOutcome>[]): Promise<void> {
    const conn = await this.sql.getConnection();
    try {
      if (batch.length > 1 && (await this.together(conn, batch))) return;
      for (const pending of batch) await this.alone(conn, pending);
    } finally {
      await conn.release();
    }
  }

  /** Writes the batch in one transaction; false (rolled back, nobody settled) when any statement failed. */
  private async together(conn: PoolConnection, batch: BatchItem<ToStore, StoreOutcome>[]): Promise<boolean> {
    const ids = await this.pipeline(conn, batch.map((pending) => pending.item));
    if (!ids) return false;
    batch.forEach((pending, index) => pending.resolve({ kind: "created", orderId: ids[index]! }));
    return true;
  }

  private async alone(conn: PoolConnection, pending: BatchItem<ToStore, StoreOutcome>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const ids = await this.pipeline(conn, [pending.item], true);
        pending.resolve({ kind: "created", orderId: ids![0]! });
      } catch (error) {
        if (isDeadlock(error) && attempt < 3) continue;
        const { siteId, order, hash } = pending.item;
        const after = isUniqueViolation(error) ? await existing(this.prisma, siteId, order.number, hash).catch(() => null) : null;
        if (after) pending.resolve(after);
        else pending.reject(error);
      }
      return;
    }
  }

  /**
   * The batch as one transaction in two round trips: its orders in one
   * INSERT, then their ids read back by (site_id, number) (auto-increment
   * values of one statement need not be consecutive), then every address and
   * every line in one INSERT each, and COMMIT. A failed statement (a
   * duplicate number fails the whole INSERT) rolls the transaction back; then
   * null, or that error when `throwFirst`.
   */
  private async pipeline(conn: PoolConnection, items: ToStore[], throwFirst = false): Promise<number[] | null> {
    try {
      const sites = [...new Set(items.map((item) => item.siteId))];
      const [, , rows] = (await conn.query(
        `START TRANSACTION;
         INSERT INTO orders (${ORDER_COLUMNS}) VALUES ${items.map(() => ORDER_ROW).join(", ")};
         SELECT id, site_id, number FROM orders WHERE site_id IN (?) AND number IN (?)`,
        [...items.flatMap(orderValues), sites, items.map((item) => item.order.number)],
      )) as [unknown, unknown, { id: number; site_id: number; number: string }[]];
      const idOf = new Map(rows.map((row) => [`${row.site_id}\n${row.number}`, row.id]));
      const ids = items.map((item) => idOf.get(`${item.siteId}\n${item.order.number}`));
      if (ids.includes(undefined)) throw new Error("an order just inserted was not read back by its number");
      const lines = items.reduce((count, item) => count + item.order.lines.length, 0);
      await conn.query(
        `INSERT INTO order_addresses (order_id, type, first_name, last_name, company, address1, address2, city, state, postal_code, country, phone, email)
           VALUES ${Array.from({ length: items.length * 2 }, () => ADDRESS_ROW).join(", ")};
         INSERT INTO order_lines (order_id, line, sku, quantity, price, coupon_code, discount_amount, weight)
           VALUES ${Array.from({ length: lines }, () => LINE_ROW).join(", ")};
         COMMIT`,
        [...items.flatMap((item, index) => addressValues(ids[index]!, item)), ...items.flatMap((item, index) => lineValues(ids[index]!, item))],
      );
      return ids as number[];
    } catch (error) {
      await conn.rollback().catch(() => {});
      if (throwFirst) throw error;
      return null;
    }
  }
}

/** One writer per pool: every order of a process goes through the same batches. */
const writers = new WeakMap<SqlPool, OrderWriter>();

/**
 * Stores the order, its lines and both addresses in one transaction: all or
 * nothing. It is the intake's hot path, so it writes through the driver pool
 * (three INSERTs), grouped with concurrent orders (OrderWriter), which costs a
 * fraction of Prisma's CPU per order (docs/decisions.md). The same order
 * number for the same site again is `same` when the content is identical (a
 * client retry) and `conflict` when it differs; the unique (site_id, number)
 * index decides races between concurrent submissions.
 */
export async function storeOrder(deps: Pick<Connections, "prisma" | "sql">, siteId: number, order: NormalisedOrder): Promise<StoreOutcome> {
  let writer = writers.get(deps.sql);
  if (!writer) {
    writer = new OrderWriter(deps.prisma, deps.sql);
    writers.set(deps.sql, writer);
  }
  return writer.store({ siteId, order, hash: orderHash(order) });
}
