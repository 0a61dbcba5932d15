import { issueSiteApiKey, upsertItems, type PrismaClient } from "@mw/shared";

let counter = 0;

/** A storefront site row with an API key for order intake. */
export async function createSiteWithKey(
  prisma: PrismaClient,
  overrides: { name?: string; platform?: "storefront_a" | "storefront_b"; is_active?: boolean } = {},
): Promise<{ siteId: number; key: string; keyId: number }> {
  counter += 1;
  const site = await prisma.site.create({
    data: {
      name: overrides.name ?? `Shop ${process.pid}-${counter}`,
      platform: overrides.platform ?? "storefront_a",
      site_url: `https://shop${counter}.example`,
      is_active: overrides.is_active ?? true,
    },
  });
  const { row, key } = await issueSiteApiKey(prisma, site.id, "test");
  return { siteId: site.id, key, keyId: row.id };
}

export async function seedItems(prisma: PrismaClient, skus: string[]): Promise<void> {
  await upsertItems(
    prisma,
    skus.map((sku) => ({ sku, name: `Item ${sku}`, price: 10, stock: 5 })),
  );
}

/** A complete, valid order submission; override what a test is about. */
export function orderBody(number: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_number: number,
    date: "2026-11-20",
    payment_method: "pay_1",
    transaction_id: "TX-1",
    billing_address: {
      first_name: "Ada",
      last_name: "Lovelace",
      address1: "1 Analytical Way",
      city: "Springfield",
      state: "IL",
      postal_code: "62701",
      email: "ada@example.com",
    },
    line_items: [
      { line_number: 1, sku: "SKU-A", quantity: 2, unit_price: 12.5 },
      { line_number: 2, sku: "SHIPPING", quantity: 1, unit_price: 4.99 },
    ],
    ...overrides,
  };
}
