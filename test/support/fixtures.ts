import { issueSiteApiKey } from "@mw/domains/sites";
import { upsertItems } from "@mw/domains/inventory";
import { type PrismaClient } from "@mw/platform";

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
  const { row, key } = await issueSiteApiKey({ prisma }, site.id, "test");
  return { siteId: site.id, key, keyId: row.id };
}

export async function seedItems(prisma: PrismaClient, skus: string[]): Promise<void> {
  await upsertItems(
    { prisma },
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

let posted = 0;
/** A site created through POST /sites at `apiUrl`, as an operator would (credentials sealed); storefront_b unless overridden. */
export async function postSite(apiUrl: string, authorization: string, overrides: Record<string, unknown> = {}): Promise<number> {
  posted += 1;
  const res = await fetch(`${apiUrl}/middleware/v1/sites`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify({
      name: `Posted ${process.pid}-${posted}`,
      platform: "storefront_b",
      site_url: `https://posted${posted}.example`,
      api_key: "ck_test",
      api_secret: "cs_test",
      ...overrides,
    }),
  });
  if (res.status !== 201) throw new Error(`POST /sites answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

/** An order a dispute can be linked to: its number (and gateway transaction id) on a site, the rest what every order needs. */
export async function createDisputedOrder(prisma: PrismaClient, siteId: number, number: string, transId: string | null = null): Promise<void> {
  await prisma.order.create({
    data: {
      site_id: siteId,
      number,
      trans_id: transId,
      dateadded: new Date("2026-11-01T12:00:00Z"),
      payment_method: "pay_1",
      pay_1: "1",
      contact_id: 27111,
      shipping_agent_code: "FEDEX",
      shipping_agent_service: "GROUND_HOME_DELIVERY",
      payload_hash: "d".repeat(64),
    },
  });
}
