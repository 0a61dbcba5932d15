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
 * The pieces a search is looked up by in order_search_grams, which holds every three- and four-character
 * piece of the searched fields. A three-character term is its own gram. A longer one is looked up by
 * four-character pieces (sequential numbers make every trigram of a whole number common: `B50` is in a
 * hundred thousand of ten million order numbers, `B500` in a tenth of that): the first, every fourth after
 * it and the last, so together they cover the whole term (a row holding all of them is a candidate the
 * LIKE then confirms) while each lookup stays one index range.
 */
export function searchGrams(term: string): string[] {
  const chars = [...term];
  if (chars.length < 3) return [];
  const size = chars.length === 3 ? 3 : 4;
  const grams = new Set<string>();
  for (let i = 0; i + size <= chars.length; i += size) grams.add(chars.slice(i, i + size).join("").toLowerCase());
  grams.add(chars.slice(-size).join("").toLowerCase());
  return [...grams];
}

function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The filter as SQL. Without a search (or with one under three characters, which scans) the rows are
 * `orders o` in the list's order, `o.dateadded, o.id`. With a longer search they are the postings of the
 * term's rarest gram, `g0`, read newest first straight from the gram index (each posting carries its
 * order's date), each kept when the order holds the other grams too and LIKE confirms it: the page costs
 * about a page of postings however old the matches, the total as many as the rarest gram has.
 */
interface OrderRows {
  where: Prisma.Sql[];
  from: Prisma.Sql;
  /** The list's order as columns of `from`: the date, then the id. */
  key: [Prisma.Sql, Prisma.Sql];
}

const BY_ORDER: OrderRows["key"] = [Prisma.raw("o.dateadded"), Prisma.raw("o.id")];
const BY_POSTING: OrderRows["key"] = [Prisma.raw("g0.dateadded"), Prisma.raw("g0.order_id")];

function orderRows(filter: OrderFilter, rarestFirst: string[]): OrderRows {
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
  if (filter.search) {
    const like = likeContains(filter.search);
    where.push(Prisma.sql`(o.number LIKE ${like} OR o.erp_sales_order_number LIKE ${like} OR o.trans_id LIKE ${like})`);
  }
  const [rarest, ...others] = rarestFirst;
  if (rarest === undefined) return { where, from: Prisma.sql`orders o`, key: BY_ORDER };
  const postings = [
    Prisma.sql`g0.gram = ${rarest}`,
    // By the primary key: left to itself the optimizer may walk the other gram's postings for each of g0's.
    ...others.map((gram) => Prisma.sql`EXISTS (SELECT 1 FROM order_search_grams g FORCE INDEX (PRIMARY) WHERE g.order_id = g0.order_id AND g.gram = ${gram})`),
  ];
  return {
    where: [...postings, ...where],
    from: Prisma.sql`order_search_grams g0 FORCE INDEX (order_search_grams_gram_dateadded_order_id_idx) STRAIGHT_JOIN orders o ON o.id = g0.order_id`,
    key: BY_POSTING,
  };
}

/** How many orders hold each gram (in the order asked), summed from the kept counts. */
async function gramCounts(db: Connections["replica"], grams: string[]): Promise<number[]> {
  const each = grams.map((gram, i) => Prisma.sql`SELECT ${i} AS i, COALESCE(SUM(orders), 0) AS n FROM order_gram_counts WHERE gram = ${gram}`);
  // A union's rows come in no promised order: each says which gram it counts.
  const rows = await db.$queryRaw<{ i: bigint | number; n: bigint | number | string }[]>`${Prisma.join(each, " UNION ALL ")}`;
  const counts = new Array<number>(grams.length).fill(0);
  for (const row of rows) counts[Number(row.i)] = Number(row.n);
  return counts;
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

/** How many orders match: summed from the kept counts where they answer it (no search, or a term that is itself a gram, alone), counted otherwise. */
async function countOrders(db: Connections["replica"], filter: OrderFilter, rows: OrderRows, oneGramTotal: number | undefined): Promise<number> {
  if (!filter.search && !filter.failed_since) {
    const key: OrderCountKey = { site_id: filter.site_id, imported: filter.imported, payment_method: filter.payment_method, ship_status: filter.ship_status };
    const state = filter.state ? STATE_COUNT_KEYS[filter.state] : {};
    // A state that contradicts another filter (imported=1 with state=pending) matches nothing.
    const clash = Object.entries(state).some(([name, value]) => key[name as keyof OrderCountKey] !== undefined && key[name as keyof OrderCountKey] !== value);
    return clash ? 0 : countKeptOrders(db, { ...key, ...state });
  }
  const { search, ...others } = filter;
  if (search && oneGramTotal !== undefined && Object.values(others).every((value) => value === undefined)) return oneGramTotal;
  const [row] = await db.$queryRaw<{ total: bigint | number }[]>`SELECT COUNT(*) AS total FROM ${rows.from} ${whereClause(rows.where)}`;
  return Number(row!.total);
}

/**
 * One page of orders, newest first, and the cursor of the page after it (null on the last page); from the
 * replica (the viewer's list tolerates lag, the order itself does not). The page's ids come first from an
 * index alone (an offset walks index entries, not rows; a cursor seeks), then those rows by key.
 */
export async function listOrders(
  deps: Pick<Connections, "replica">,
  filter: OrderFilter,
  window: OrderWindow,
): Promise<{ total: number; rows: OrderWithSite[]; next: OrderCursor | null }> {
  const grams = filter.search ? searchGrams(filter.search) : [];
  const counts = grams.length ? await gramCounts(deps.replica, grams) : [];
  // A gram no order holds: nothing matches, and nothing need be read.
  if (counts.some((n) => n === 0)) return { total: 0, rows: [], next: null };
  const rarestFirst = grams.map((gram, i) => ({ gram, n: counts[i]! })).sort((a, b) => a.n - b.n).map(({ gram }) => gram);
  const rows = orderRows(filter, rarestFirst);
  const total = await countOrders(deps.replica, filter, rows, grams.length === 1 && [...filter.search!].length <= 4 ? counts[0] : undefined);
  const where = [...rows.where];
  const [date, id] = rows.key;
  if (window.after) {
    // `<=` first: a plain range of the date index, the tie on the date settled by id within it.
    where.push(Prisma.sql`${date} <= ${window.after.dateadded} AND (${date} < ${window.after.dateadded} OR ${id} < ${window.after.id})`);
  }
  const skip = window.after ? 0 : window.skip;
  const ids =
    window.take === 0
      ? []
      : await deps.replica.$queryRaw<{ id: number }[]>`SELECT o.id FROM ${rows.from} ${whereClause(where)} ORDER BY ${date} DESC, ${id} DESC LIMIT ${window.take} OFFSET ${skip}`;
  const found = ids.length ? await deps.replica.order.findMany({ where: { id: { in: ids.map((row) => row.id) } }, include: { site: { select: { name: true } } } }) : [];
  const byId = new Map(found.map((row) => [row.id, row]));
  const page = ids.map((row) => byId.get(row.id)).filter((row) => row !== undefined);
  const last = page.at(-1);
  return { total, rows: page, next: last && ids.length === window.take ? { dateadded: last.dateadded, id: last.id } : null };
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
