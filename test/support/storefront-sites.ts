import { sealCredentials } from "@mw/domains/sites";
import type { Prisma, PrismaClient } from "@mw/platform";
import type { SalesShipmentLine } from "@mw/providers/erp";
import type { FakeStore, FakeStorefrontA } from "../fakes/storefront-a.ts";
import type { FakeStorefrontB } from "../fakes/storefront-b.ts";

/** Site rows wired to the storefront fakes, with every sync switched on unless a test says otherwise. */
type Settings = Partial<Prisma.SiteUncheckedCreateInput>;

let counter = 0;

export async function storefrontASite(prisma: PrismaClient, key: Buffer, fake: FakeStorefrontA, settings: Settings = {}): Promise<{ siteId: number; store: FakeStore }> {
  counter += 1;
  const hash = `s${process.pid}x${counter}`;
  const store = fake.addStore({ hash, accessToken: `token-${hash}`, clientId: `client-${hash}`, name: `Store ${hash}` });
  const site = await prisma.site.create({
    data: {
      name: `BigCommerce ${hash}`,
      platform: "storefront_a",
      site_url: `https://${hash}.example`,
      api_base_url: fake.baseUrl(hash),
      api_credentials: sealCredentials({ client_id: store.clientId, access_token: store.accessToken }, key),
      tracking_sync: true,
      tracking_enabled: true,
      inventory_sync: true,
      ...settings,
    },
  });
  return { siteId: site.id, store };
}

export async function storefrontBSite(prisma: PrismaClient, key: Buffer, fake: FakeStorefrontB, settings: Settings = {}): Promise<number> {
  counter += 1;
  const site = await prisma.site.create({
    data: {
      name: `WooCommerce ${process.pid}-${counter}`,
      platform: "storefront_b",
      site_url: fake.url,
      api_credentials: sealCredentials({ client_id: fake.consumerKey, access_token: fake.consumerSecret }, key),
      tracking_sync: true,
      tracking_enabled: true,
      inventory_sync: true,
      ...settings,
    },
  });
  return site.id;
}

/** An order pushed to us with the storefront's order number and exported to the ERP as `salesOrder`. */
export async function exportedOrder(prisma: PrismaClient, siteId: number, number: string, salesOrder: string): Promise<void> {
  await prisma.order.create({ data: { ...orderRow(siteId, number), imported: 1, imported_at: new Date(), erp_sales_order_number: salesOrder } });
}

/** An order pushed to us with the storefront's order number, its export to the ERP still to come. */
export async function receivedOrder(prisma: PrismaClient, siteId: number, number: string): Promise<void> {
  await prisma.order.create({ data: orderRow(siteId, number) });
}

function orderRow(siteId: number, number: string) {
  return {
    site_id: siteId,
    number,
    dateadded: new Date("2026-11-17T10:00:00Z"),
    payment_method: "pay_1",
    pay_1: "1",
    contact_id: 27111,
    shipping_agent_code: "UPS",
    shipping_agent_service: "GROUND_HOME_DELIVERY",
    payload_hash: "e".repeat(64),
  };
}

/** ERP shipment lines for `sku: quantity` pairs. */
export function itemLines(lines: Record<string, number>): SalesShipmentLine[] {
  return Object.entries(lines).map(([sku, quantity], i) => ({ sequence: i + 1, lineType: "Item", lineObjectNumber: sku, quantity }));
}
