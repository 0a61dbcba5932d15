// The order list at scale (issue 44): search through the gram table kept by triggers, keyset pages and
// totals read from kept counts, each checked against what the orders table itself says.
import { createUser } from "@mw/domains/identity";
import { listOrders } from "@mw/domains/orders";
import { createPrisma, createSqlPool } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../packages/api/src/cli/main.ts";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { testDatabaseUrl } from "../support/env.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";
import { until } from "../support/wait.ts";

let api: TestApi;
let auth: string;
let site: { siteId: number; key: string };
const tag = `${process.pid % 100000}`;
type OrderRow = { id: number; number: string; trans_id: string | null; erp_sales_order_number: string | null; dateadded: string };
type Page = { orders: OrderRow[]; total: number; page: number; per_page: number; total_pages: number; next_cursor: string | null };

beforeAll(async () => {
  api = await startApi();
  const admin = await createUser(api.ctx, { login: uniqueLogin("search"), capabilities: ["manage_middleware"] });
  auth = basicAuth(admin.login, admin.application_password);
  await seedItems(api.ctx.prisma, ["SKU-A"]);
  site = await createSiteWithKey(api.ctx.prisma);
});
afterAll(() => api.close());

async function list(query: string): Promise<Page> {
  const res = await fetch(`${api.url}/middleware/v1/orders?${query}`, { headers: { authorization: auth } });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

async function intake(number: string, transactionId: string, day: number): Promise<void> {
  const res = await fetch(`${api.url}/middleware/v1/external/orders`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": site.key },
    body: JSON.stringify(orderBody(number, { transaction_id: transactionId, date: `2026-10-${String(day).padStart(2, "0")}`, line_items: [{ line_number: 1, sku: "SKU-A", quantity: 1, unit_price: 1 }] })),
  });
  expect(res.status).toBe(201);
}

/** An order written by plain SQL, as an import or a restore writes it: no platform code runs. */
async function insertBySql(number: string, transId: string, erp: string | null, dateadded: string): Promise<number> {
  await api.ctx.prisma.$executeRaw`INSERT INTO orders (site_id, number, trans_id, erp_sales_order_number, dateadded, payment_method, contact_id,
      shipping_agent_code, shipping_agent_service, payload_hash, updated_at)
    VALUES (${site.siteId}, ${number}, ${transId}, ${erp}, ${dateadded}, 'pay_1', 1, 'FEDEX', 'GROUND', ${"0".repeat(64)}, NOW(3))`;
  const [row] = await api.ctx.prisma.$queryRaw<{ id: number }[]>`SELECT id FROM orders WHERE site_id = ${site.siteId} AND number = ${number}`;
  return row!.id;
}

describe("order search", () => {
  it("finds orders written by plain SQL by a substring of three characters or more of any of the three numbers, and no others", async () => {
    const id = await insertBySql(`Q${tag}XYZ`, `TXN${tag}KLM`, `SO${tag}PQR`, "2026-10-01 08:00:00");
    for (const term of ["XYZ", `${tag.slice(-1)}XYZ`, `${tag}XY`, "klm", `N${tag}K`, "PQR", `SO${tag}P`, `Q${tag}XYZ`]) {
      const page = await list(`search=${encodeURIComponent(term)}`);
      expect(page.orders.map((order) => order.id), term).toContain(id);
      expect(page.total, term).toBe(page.orders.length);
    }
    expect((await list(`search=${tag}XQ`)).orders.map((order) => order.id)).not.toContain(id);
    // An ERP number set later (the export) is found by its new value, not its old one.
    await api.ctx.prisma.$executeRaw`UPDATE orders SET erp_sales_order_number = ${`SO${tag}NEW`} WHERE id = ${id}`;
    expect((await list(`search=${tag}NEW`)).orders.map((order) => order.id)).toEqual([id]);
    expect((await list(`search=${tag}PQR`)).orders).toEqual([]);
    // Wildcards are characters here, as the spec's substring means.
    expect((await list(`search=${encodeURIComponent(`${tag}%`)}`)).total).toBe(0);
  });

  it("answers a three-character term with its newest matches first and its real total, however old the matches, through updates and deletes", async () => {
    const term = `Q${String.fromCharCode(65 + (process.pid % 26))}${String.fromCharCode(65 + (Math.floor(process.pid / 26) % 26))}`;
    const like = `%${term}%`;
    const real = async () => {
      const ids = await api.ctx.prisma.$queryRaw<{ id: number }[]>`SELECT id FROM orders
        WHERE number LIKE ${like} OR erp_sales_order_number LIKE ${like} OR trans_id LIKE ${like} ORDER BY dateadded DESC, id DESC`;
      return ids.map((row) => row.id);
    };
    const walk = async (query: string) => {
      const seen: number[] = [];
      let cursor: string | null = null;
      let total = -1;
      do {
        const answer: Page = await list(`${query}&per_page=2${cursor ? `&cursor=${cursor}` : ""}`);
        seen.push(...answer.orders.map((order) => order.id));
        total = answer.total;
        cursor = answer.next_cursor;
      } while (cursor);
      return { seen, total };
    };
    // Matches a year old and older in each of the three numbers, newer orders between them that do not match.
    const kept = [
      await insertBySql(`O${tag}${term}1`, `OT${tag}1`, null, "2024-03-01 08:00:00"),
      await insertBySql(`O${tag}2`, `${term}${tag}2`, null, "2024-06-01 08:00:00"),
      await insertBySql(`O${tag}3`, `OT${tag}3`, `SO-${term.toLowerCase()}-${tag}`, "2024-06-01 08:00:00"),
      await insertBySql(`O${tag}4`, `OT${tag}4`, `SO${term}${term}`, "2025-01-01 08:00:00"),
    ];
    for (let i = 5; i <= 12; i += 1) await insertBySql(`O${tag}${i}`, `OT${tag}${i}`, null, "2026-10-20 08:00:00");
    const expected = await real();
    expect(expected).toEqual(expect.arrayContaining(kept));
    for (const query of [`search=${term}`, `search=${term.toLowerCase()}`]) {
      const first = await list(`${query}&per_page=2`);
      expect(first.orders.map((order) => order.id), query).toEqual(expected.slice(0, 2));
      expect(first.total, query).toBe(expected.length);
      expect(await walk(query)).toEqual({ seen: expected, total: expected.length });
    }
    // Out of the term by an update, gone by a delete, newest by a corrected date: the total and the pages follow.
    await api.ctx.prisma.$executeRaw`UPDATE orders SET trans_id = ${`OT${tag}2`} WHERE id = ${kept[1]}`;
    await api.ctx.prisma.$executeRaw`UPDATE orders SET dateadded = '2026-11-01 08:00:00' WHERE id = ${kept[0]}`;
    await api.ctx.prisma.$executeRaw`DELETE FROM orders WHERE id = ${kept[3]}`;
    const after = await real();
    expect(after).not.toContain(kept[1]);
    expect(after).not.toContain(kept[3]);
    expect(after[0]).toBe(kept[0]);
    expect(await walk(`search=${term}`)).toEqual({ seen: after, total: after.length });
  });

  it("finds a term whose every three characters hundreds of orders share by reading about as many index entries as share its four", async () => {
    // As a year of sequential numbers has it: each trigram of the term is common (`B50` is in a hundred
    // thousand of ten million order numbers), while fewer orders hold the term's four-character pieces.
    await api.ctx.prisma.$executeRaw`INSERT INTO orders (site_id, number, dateadded, payment_method, contact_id, shipping_agent_code, shipping_agent_service, payload_hash, updated_at)
      SELECT ${site.siteId}, ELT(1 + seq % 4, CONCAT('XYZ', ${tag}, '-', seq), CONCAT(${tag}, '-', seq, 'UVW'), CONCAT('XYZU', ${tag}, '-', seq), CONCAT(${tag}, '-', seq, 'ZUVW')),
        '2026-09-01' + INTERVAL seq MINUTE, 'pay_1', 1, 'FEDEX', 'GROUND', ${"0".repeat(64)}, NOW(3) FROM seq_1000_to_1799 WHERE seq % 4 < 2 OR seq % 16 < 4`;
    const id = await insertBySql(`H${tag}XYZUVW`, `HT${tag}`, null, "2026-08-01 08:00:00");
    // One connection, so its session's handler counters are this search's alone.
    const replica = createPrisma(testDatabaseUrl(), { connectionLimit: 1 });
    try {
      // Index entries walked either way: the total reads a gram's postings forward, the page newest first (backward).
      const reads = async () =>
        (await replica.$queryRaw<{ Value: string }[]>`SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_next', 'Handler_read_prev')`).reduce((sum, row) => sum + Number(row.Value), 0);
      const before = await reads();
      const found = await listOrders({ replica }, { search: "XYZUVW" }, { skip: 0, take: 20 });
      const read = (await reads()) - before;
      expect(found.rows.map((order) => order.id)).toEqual([id]);
      expect(found.total).toBe(1);
      // The page and the total each walk the 51 postings of `XYZU` or `ZUVW`, each kept or not by a key lookup:
      // by trigrams they walked the 251 of `XYZ` or `UVW`; walking the other 4-gram's postings for each, 2,601.
      expect(read).toBeLessThan(300);
    } finally {
      await replica.$disconnect();
    }
  });

  it("leaves a bulk load's orders to orders:reindex when its session defers the search, and indexes everyone else's as they come", async () => {
    const before = (await api.ctx.prisma.$queryRaw<{ n: bigint }[]>`SELECT SUM(orders) AS n FROM order_counts`)[0]!.n;
    // One connection for the session: the deferral is a session variable.
    const loader = createPrisma(testDatabaseUrl(), { connectionLimit: 1 });
    try {
      await loader.$executeRaw`SET @order_search_deferred = 1`;
      await loader.$executeRaw`INSERT INTO orders (site_id, number, dateadded, payment_method, contact_id, shipping_agent_code, shipping_agent_service, payload_hash, updated_at)
        SELECT ${site.siteId}, CONCAT(${`L${tag}BULK`}, seq), '2026-07-01' + INTERVAL seq MINUTE, 'pay_1', 1, 'FEDEX', 'GROUND', ${"0".repeat(64)}, NOW(3) FROM seq_1_to_5`;
    } finally {
      await loader.$disconnect();
    }
    const live = await insertBySql(`L${tag}LIVE`, `LT${tag}`, null, "2026-07-02 08:00:00");
    expect((await list(`search=L${tag}BULK`)).total).toBe(0);
    expect((await list(`search=L${tag}LIVE`)).orders.map((order) => order.id)).toEqual([live]);
    const code = await main(["orders:reindex"], { out: () => undefined, err: () => undefined });
    expect(code).toBe(0);
    const bulk = await list(`search=L${tag}BULK`);
    expect(bulk.orders.map((order) => order.number)).toEqual([5, 4, 3, 2, 1].map((n) => `L${tag}BULK${n}`));
    expect(bulk.total).toBe(5);
    const after = (await api.ctx.prisma.$queryRaw<{ n: bigint }[]>`SELECT SUM(orders) AS n FROM order_counts`)[0]!.n;
    expect(Number(after) - Number(before)).toBe(6);
  });

  it("finds the same orders after pnpm cli orders:reindex, which says how long it took", async () => {
    const id = await insertBySql(`R${tag}AAB`, `R${tag}`, null, "2026-10-02 08:00:00");
    await api.ctx.prisma.$executeRaw`DELETE FROM order_search_grams WHERE order_id = ${id}`;
    expect((await list(`search=R${tag}AAB`)).orders).toEqual([]);
    const out: string[] = [];
    const code = await main(["orders:reindex"], { out: (text) => out.push(text), err: (text) => out.push(text) });
    expect(code).toBe(0);
    expect(JSON.parse(out.join(""))).toMatchObject({ seconds: expect.any(Number), orders: expect.any(Number) });
    expect((await list(`search=R${tag}AAB`)).orders.map((order) => order.id)).toEqual([id]);
  });

  it("runs orders:reindex's statements past DB_QUERY_TIMEOUT_MS, which bounds other commands' (its recounts take minutes at ten million orders)", async () => {
    // Another transaction holds order_counts' rows, so the reindex's recount waits on them past the 1 s set here.
    await insertBySql(`Q${tag}WAIT`, `QT${tag}`, null, "2026-10-03 08:00:00");
    const pool = createSqlPool(testDatabaseUrl(), { connectionLimit: 1 });
    const blocker = await pool.getConnection();
    const setting = process.env.DB_QUERY_TIMEOUT_MS;
    process.env.DB_QUERY_TIMEOUT_MS = "1000";
    try {
      await blocker.beginTransaction();
      await blocker.query("SELECT COUNT(*) FROM order_counts FOR UPDATE");
      const run = main(["orders:reindex"], { out: () => undefined, err: () => undefined });
      await until(async () => {
        const [waiting] = (await blocker.query("SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE 'DELETE FROM order_counts%' AND TIME >= 2")) as { n: bigint | number }[];
        return Number(waiting!.n) > 0;
      }, () => "the reindex to wait on order_counts for 2 s");
      await blocker.commit();
      expect(await run).toBe(0);
    } finally {
      if (setting === undefined) delete process.env.DB_QUERY_TIMEOUT_MS;
      else process.env.DB_QUERY_TIMEOUT_MS = setting;
      blocker.release();
      await pool.end();
    }
  });
});

describe("order pages and totals", () => {
  it("walks every order of a site once, newest first, by cursor, while page still answers the same pages", async () => {
    const { siteId } = site;
    for (let i = 1; i <= 9; i += 1) await intake(`K${tag}-${i}`, `KT${i}`, 1 + (i % 4));
    const [{ count }] = (await api.ctx.prisma.$queryRaw`SELECT COUNT(*) AS count FROM orders WHERE site_id = ${siteId}`) as [{ count: bigint }];
    const byPage: OrderRow[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await list(`site_id=${siteId}&per_page=4&page=${page}`);
      expect(answer).toMatchObject({ page, per_page: 4, total: Number(count), total_pages: Math.ceil(Number(count) / 4) });
      byPage.push(...answer.orders);
      if (answer.orders.length < 4) break;
    }
    const byCursor: OrderRow[] = [];
    let cursor: string | null = null;
    do {
      const answer: Page = await list(`site_id=${siteId}&per_page=4${cursor ? `&cursor=${cursor}` : ""}`);
      byCursor.push(...answer.orders);
      cursor = answer.next_cursor;
    } while (cursor);
    expect(byCursor.map((order) => order.id)).toEqual(byPage.map((order) => order.id));
    expect(new Set(byCursor.map((order) => order.id)).size).toBe(Number(count));
    const keys = byCursor.map((order) => [order.dateadded, order.id] as const);
    const sorted = [...keys].sort((a, b) => (a[0] === b[0] ? b[1] - a[1] : a[0] < b[0] ? 1 : -1));
    expect(keys).toEqual(sorted);
    const bad = await fetch(`${api.url}/middleware/v1/orders?cursor=nonsense`, { headers: { authorization: auth } });
    expect(bad.status).toBe(400);
  });

  it("keeps the list's total and GET /stats equal to a real count through intakes, updates and deletes", async () => {
    const real = async () => {
      const [row] = await api.ctx.prisma.$queryRaw<{ all: bigint; site: bigint; pending: bigint; verify: bigint }[]>`SELECT COUNT(*) AS \`all\`,
        SUM(site_id = ${site.siteId}) AS site, SUM(imported = 0) AS pending, SUM(imported = 1 AND verified = 0) AS verify FROM orders`;
      return { all: Number(row!.all), site: Number(row!.site), pending: Number(row!.pending), verify: Number(row!.verify) };
    };
    const check = async () => {
      const counted = await real();
      expect((await list("")).total).toBe(counted.all);
      expect((await list(`site_id=${site.siteId}`)).total).toBe(counted.site);
      for (const [query, where] of [
        ["imported=0", "imported = 0"],
        ["ship_status=1", "ship_status = 1"],
        ["payment_method=pay_2", "payment_method = 'pay_2'"],
        ["state=pending", "imported = 0 AND failed_at IS NULL"],
        ["state=exported", "imported = 1 AND verified = 0 AND failed_at IS NULL"],
        ["state=failed", "verified = 0 AND failed_at IS NOT NULL"],
        [`state=verified&site_id=${site.siteId}`, `verified = 1 AND site_id = ${site.siteId}`],
        ["state=pending&imported=1", "FALSE"],
      ] as const) {
        const [row] = await api.ctx.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT COUNT(*) AS n FROM orders WHERE ${where}`);
        expect((await list(query)).total, query).toBe(Number(row!.n));
      }
      const stats = (await (await fetch(`${api.url}/middleware/v1/stats`, { headers: { authorization: auth } })).json()) as { orders: { pending_insert: number; pending_verify: number } };
      expect(stats.orders).toMatchObject({ pending_insert: counted.pending, pending_verify: counted.verify });
    };
    await intake(`C${tag}-1`, "CT1", 5);
    await intake(`C${tag}-2`, "CT2", 6);
    const sqlId = await insertBySql(`C${tag}-3`, "CT3", null, "2026-10-07 00:00:00");
    await check();
    await api.ctx.prisma.$executeRaw`UPDATE orders SET imported = 1, imported_at = NOW(3) WHERE id = ${sqlId}`;
    await check();
    await api.ctx.prisma.$executeRaw`UPDATE orders SET failed_at = NOW(3), ship_status = 1, payment_method = 'pay_2' WHERE id = ${sqlId}`;
    await check();
    await api.ctx.prisma.$executeRaw`UPDATE orders SET failed_at = NULL, verified = 1 WHERE id = ${sqlId}`;
    await check();
    await api.ctx.prisma.$executeRaw`DELETE FROM orders WHERE id = ${sqlId}`;
    await check();
  });
});
