import { Prisma } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";
import type { OrderStateFilter } from "./lifecycle.ts";
import type { PaymentMethod } from "./submission.ts";

type Db = Pick<Connections, "prisma">;

/** An order with its site's name. */
export type OrderWithSite = Prisma.OrderGetPayload<{ include: { site: { select: { name: true } } } }>;

/** The admin viewer's filters; absent members do not filter. */
export interface OrderFilter {
  site_id?: number;
  imported?: number;
  payment_method?: PaymentMethod;
  ship_status?: number;
  /** Where the order is in its life, as the table holds it (lifecycle.ts). */
  state?: OrderStateFilter;
  /** Failed at or after this time (the operations page's windows link here). */
  failed_since?: Date;
  /** A substring of the order number, the ERP sales order number or the transaction id. */
  search?: string;
}

/** Where a keyset page starts: just after this row in the list's order (newest first). */
export interface OrderCursor {
  dateadded: Date;
  id: number;
}

/** A page by offset (`skip`, the spec's `page`) or, with `after`, the `take` rows after a cursor whatever the offset. */
export interface OrderWindow {
  skip: number;
  take: number;
  after?: OrderCursor;
}

/** The cursor as the API hands it out: opaque to callers, `<ms>.<id>` in base64url. */
export function encodeOrderCursor(cursor: OrderCursor): string {
  return Buffer.from(`${cursor.dateadded.getTime()}.${cursor.id}`).toString("base64url");
}

/** The cursor back from its text; null when it is not one this API handed out. */
export function decodeOrderCursor(text: string): OrderCursor | null {
  const match = /^(\d{1,15})\.(\d{1,10})$/.exec(Buffer.from(text, "base64url").toString());
  return match ? { dateadded: new Date(Number(match[1])), id: Number(match[2]) } : null;
}

/**
 * The three-character pieces a search is looked up by in order_search_grams: the first, every third after
 * it and the last, so together they cover the whole term (a row holding all of them is a candidate the
 * LIKE then confirms) while each lookup stays one index range.
 */
export function searchGrams(term: string): string[] {
  const chars = [...term];
  if (chars.length < 3) return [];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i += 3) grams.add(chars.slice(i, i + 3).join("").toLowerCase());
  grams.add(chars.slice(-3).join("").toLowerCase());
  return [...grams];
}

function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The filter as SQL on `orders o`, beside what the candidates of a search come from: the orders holding
 * every gram of the term, read by key (`from`), or (`walk`) the orders newest first, each checked in the
 * grams, for a term so common that a page's worth turns up within the first few hundred orders.
 */
function orderConditions(filter: OrderFilter): { where: Prisma.Sql[]; from: Prisma.Sql; walk?: { where: Prisma.Sql[]; from: Prisma.Sql } } {
  const where: Prisma.Sql[] = [];
  if (filter.site_id !== undefined) where.push(Prisma.sql`o.site_id = ${filter.site_id}`);
  if (filter.imported !== undefined) where.push(Prisma.sql`o.imported = ${filter.imported}`);
  if (filter.payment_method !== undefined) where.push(Prisma.sql`o.payment_method = ${filter.payment_method}`);
  if (filter.ship_status !== undefined) where.push(Prisma.sql`o.ship_status = ${filter.ship_status}`);
  if (filter.failed_since) where.push(Prisma.sql`o.failed_at >= ${filter.failed_since}`);
  if (filter.state === "failed") where.push(Prisma.sql`o.verified = 0 AND o.failed_at IS NOT NULL`);
  if (filter.state === "verified") where.push(Prisma.sql`o.verified = 1`);
  if (filter.state === "exported") where.push(Prisma.sql`o.imported = 1 AND o.verified = 0 AND o.failed_at IS NULL`);
  if (filter.state === "pending") where.push(Prisma.sql`o.imported = 0 AND o.failed_at IS NULL`);
  let from = Prisma.sql`orders o`;
  let walk: { where: Prisma.Sql[]; from: Prisma.Sql } | undefined;
  if (filter.search) {
    const like = likeContains(filter.search);
    where.push(Prisma.sql`(o.number LIKE ${like} OR o.erp_sales_order_number LIKE ${like} OR o.trans_id LIKE ${like})`);
    // From three characters the candidates come from the gram table, the orders read by key; shorter
    // terms (too common to be worth an index) scan.
    const grams = searchGrams(filter.search);
    if (grams.length) {
      const joins = grams.slice(1).map((gram, i) => {
        const alias = Prisma.raw(`g${i + 1}`);
        return Prisma.sql`JOIN order_search_grams ${alias} ON ${alias}.order_id = g0.order_id AND ${alias}.gram = ${gram}`;
      });
      const candidates = Prisma.sql`SELECT g0.order_id FROM order_search_grams g0 ${joins.length ? Prisma.join(joins, " ") : Prisma.empty} WHERE g0.gram = ${grams[0]}`;
      from = Prisma.sql`(${candidates}) m STRAIGHT_JOIN orders o ON o.id = m.order_id`;
      // A term many orders hold is found sooner walking the newest orders and looking each up in the grams.
      const inGrams = grams.map((gram) => Prisma.sql`EXISTS (SELECT 1 FROM order_search_grams g WHERE g.gram = ${gram} AND g.order_id = o.id)`);
      walk = { where: inGrams, from: Prisma.sql`orders o FORCE INDEX (orders_dateadded_idx)` };
    }
  }
  return { where, from, walk };
}

function whereClause(parts: Prisma.Sql[]): Prisma.Sql {
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, " AND ")}` : Prisma.empty;
}

/** The dimensions order_counts keeps, each absent one summed over. */
export interface OrderCountKey {
  site_id?: number;
  imported?: number;
  verified?: number;
  ship_status?: number;
  payment_method?: string;
  failed?: boolean;
}

/** How many orders there are of these values, summed from the kept counts (a few rows, never the orders). */
export async function countKeptOrders(db: Connections["replica"], key: OrderCountKey): Promise<number> {
  const where = Object.entries(key)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => Prisma.sql`${Prisma.raw(column)} = ${typeof value === "boolean" ? Number(value) : value}`);
  const [row] = await db.$queryRaw<{ total: bigint | number | string | null }[]>`SELECT SUM(orders) AS total FROM order_counts ${whereClause(where)}`;
  return Number(row?.total ?? 0);
}

const STATE_COUNT_KEYS: Record<OrderStateFilter, OrderCountKey> = {
  failed: { verified: 0, failed: true },
  verified: { verified: 1 },
  exported: { imported: 1, verified: 0, failed: false },
  pending: { imported: 0, failed: false },
};

/** How many orders match: summed from the kept counts unless a search or a failure time filters, counted then. */
async function countOrders(db: Connections["replica"], filter: OrderFilter): Promise<number> {
  if (!filter.search && !filter.failed_since) {
    const key: OrderCountKey = { site_id: filter.site_id, imported: filter.imported, payment_method: filter.payment_method, ship_status: filter.ship_status };
    const state = filter.state ? STATE_COUNT_KEYS[filter.state] : {};
    // A state that contradicts another filter (imported=1 with state=pending) matches nothing.
    const clash = Object.entries(state).some(([name, value]) => key[name as keyof OrderCountKey] !== undefined && key[name as keyof OrderCountKey] !== value);
    return clash ? 0 : countKeptOrders(db, { ...key, ...state });
  }
  const { search, ...others } = filter;
  if (search && [...search].length === 3 && Object.values(others).every((value) => value === undefined)) {
    // A three-character term is one gram: its orders are counted in the gram index alone, no order read.
    const [row] = await db.$queryRaw<{ total: bigint | number }[]>`SELECT COUNT(*) AS total FROM order_search_grams WHERE gram = ${search}`;
    return Number(row!.total);
  }
  const { where, from } = orderConditions(filter);
  const [row] = await db.$queryRaw<{ total: bigint | number }[]>`SELECT COUNT(*) AS total FROM ${from} ${whereClause(where)}`;
  return Number(row!.total);
}

/** Above this many matches a search walks the newest orders rather than sorting every match (measured: docs/decisions.md, "Reads at scale"). */
const WALK_ABOVE = 5_000;

/**
 * One page of orders, newest first, and the cursor of the page after it (null on the last page); from the
 * replica (the viewer's list tolerates lag, the order itself does not). The page's ids come first from the
 * index alone (an offset walks index entries, not rows; a cursor seeks), then those rows by key.
 */
export async function listOrders(
  deps: Pick<Connections, "replica">,
  filter: OrderFilter,
  window: OrderWindow,
): Promise<{ total: number; rows: OrderWithSite[]; next: OrderCursor | null }> {
  const conditions = orderConditions(filter);
  const total = await countOrders(deps.replica, filter);
  const { where, from } = conditions.walk && total > WALK_ABOVE ? { where: [...conditions.where, ...conditions.walk.where], from: conditions.walk.from } : conditions;
  if (window.after) {
    // `<=` first: a plain range of the dateadded index, the tie on dateadded settled by id within it.
    const { dateadded, id } = window.after;
    where.push(Prisma.sql`o.dateadded <= ${dateadded} AND (o.dateadded < ${dateadded} OR o.id < ${id})`);
  }
  const skip = window.after ? 0 : window.skip;
  const ids =
    window.take === 0
      ? []
      : await deps.replica.$queryRaw<{ id: number }[]>`SELECT o.id FROM ${from} ${whereClause(where)} ORDER BY o.dateadded DESC, o.id DESC LIMIT ${window.take} OFFSET ${skip}`;
  const found = ids.length ? await deps.replica.order.findMany({ where: { id: { in: ids.map((row) => row.id) } }, include: { site: { select: { name: true } } } }) : [];
  const byId = new Map(found.map((row) => [row.id, row]));
  const rows = ids.map((row) => byId.get(row.id)).filter((row) => row !== undefined);
  const last = rows.at(-1);
  return { total, rows, next: last && ids.length === window.take ? { dateadded: last.dateadded, id: last.id } : null };
}

/** One order with its site's name, its lines by line number and its addresses (billing first); null when there is none. */
export function findOrderDetail(deps: Db, id: number) {
  return deps.prisma.order.findUnique({
    where: { id },
    include: { site: { select: { name: true } }, lines: { orderBy: { line: "asc" } }, addresses: { orderBy: { type: "desc" } } },
  });
}

/** The site's order of that number as far as the ERP is concerned; null when the site never sent it. */
export function findSiteOrder(deps: Db, siteId: number, number: string) {
  return deps.prisma.order.findUnique({
    where: { site_id_number: { site_id: siteId, number } },
    select: { id: true, erp_sales_order_number: true, ship_status: true },
  });
}

/** How many orders the site has. */
export function countSiteOrders(deps: Db, siteId: number): Promise<number> {
  return deps.prisma.order.count({ where: { site_id: siteId } });
}

/** The orders with this number (one per site; the first 20), for finding their jobs. */
export function ordersByNumber({ prisma }: Pick<Connections, "prisma">, number: string): Promise<{ id: number; site_id: number }[]> {
  return prisma.order.findMany({ where: { number }, select: { id: true, site_id: true }, take: 20 });
}
