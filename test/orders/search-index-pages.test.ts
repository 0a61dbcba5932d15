// How much disk and buffer pool the order search's grams take after a rebuild (issue 44): at ten million
// orders an unsorted rebuild left the grams' primary key at 26 GB, three quarters of it empty page space.
import { reindexOrderSearch } from "@mw/domains/orders";
import { createPrisma, type PrismaClient } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDatabase, migrate } from "../../scripts/migrations/apply.ts";
import { seedSite, withOrderSearchDeferred } from "../../scripts/support/seed.ts";
import { testDatabaseUrl } from "../support/env.ts";

// A database of its own: the page count is of this table alone, which other files' orders would blur.
const URL = testDatabaseUrl(`grams_${process.pid}`);
const ORDERS = 5_000;
let prisma: PrismaClient;

beforeAll(async () => {
  await migrate(URL);
  prisma = createPrisma(URL, { connectionLimit: 2 });
  const site = await seedSite(prisma, { name: "Pages shop", platform: "storefront_a", site_url: "https://pages.example" });
  // A bulk load as bench:data's seeding writes one: the triggers deferred, the grams left to the rebuild.
  await withOrderSearchDeferred(
    prisma,
    `INSERT INTO orders (id, site_id, number, trans_id, erp_sales_order_number, dateadded, payment_method, contact_id,
       shipping_agent_code, shipping_agent_service, imported, verified, ship_status, fully_import_from_website, payload_hash, created_at, updated_at)
     SELECT seq, ${site.id}, CONCAT('B', 9000000 + seq), CONCAT('T', 7000000 + seq), CONCAT('SO-', 5000000 + seq), NOW(3) - INTERVAL seq MINUTE,
       'pay_1', 1, 'FEDEX', 'GROUND', 1, 1, 0, 1, LPAD(seq, 64, '0'), NOW(3), NOW(3)
     FROM seq_1_to_${ORDERS}`,
  );
}, 120_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await dropDatabase(URL);
});

describe("the order search's grams after a rebuild", () => {
  it("fill the primary key's pages rather than leaving each split page half empty", async () => {
    const { grams } = await reindexOrderSearch({ prisma });
    await prisma.$executeRawUnsafe("ANALYZE TABLE order_search_grams");
    const [stats] = await prisma.$queryRaw<{ leaves: bigint | number }[]>`
      SELECT stat_value AS leaves FROM mysql.innodb_index_stats
      WHERE database_name = DATABASE() AND table_name = 'order_search_grams' AND index_name = 'PRIMARY' AND stat_name = 'n_leaf_pages'`;
    // About 35 bytes a row: a full 16 KB page holds some 450, a page split in two and never refilled under half that.
    // Written unsorted these grams took about 120 a page; in key order about 450.
    expect(grams).toBeGreaterThan(ORDERS * 20);
    expect(grams / Number(stats!.leaves)).toBeGreaterThan(300);
  });
});
