// The outside world of `pnpm demo`: fakes of the ERP, both storefronts, the
// payment gateway, the fraud service and an SMTP sink, listening on local
// ports in this process, with a catalogue both sides agree on.
import { randomBytes } from "node:crypto";
import { FakeErp } from "../../test/fakes/erp.ts";
import { FakeFraud } from "../../test/fakes/fraud.ts";
import { FakeGateway } from "../../test/fakes/gateway.ts";
import { FakeSmtp } from "../../test/fakes/smtp.ts";
import { FakeStorefrontA, type FakeStore } from "../../test/fakes/storefront-a.ts";
import { FakeStorefrontB } from "../../test/fakes/storefront-b.ts";

export const CATALOGUE = [
  { sku: "TEE-BLK-M", name: "T-shirt, black, M", price: 19.9 },
  { sku: "TEE-BLK-L", name: "T-shirt, black, L", price: 19.9 },
  { sku: "HOOD-GRY-M", name: "Hoodie, grey, M", price: 49 },
  { sku: "MUG-LOGO", name: "Mug with logo", price: 12.5 },
  { sku: "CAP-NAVY", name: "Cap, navy", price: 17 },
  { sku: "SOCK-3PK", name: "Socks, 3-pack", price: 9.99 },
] as const;

export class DemoWorld {
  readonly erpToken = randomBytes(16).toString("hex");
  readonly gatewayKey = randomBytes(16).toString("hex");
  readonly fraudKey = randomBytes(16).toString("hex");
  readonly fraudTeam = "demo-fraud-team";
  readonly mid = "600123";
  readonly webhookSecret = randomBytes(12).toString("hex");
  readonly erp = new FakeErp(this.erpToken);
  readonly bigcommerce = new FakeStorefrontA();
  readonly woocommerce = new FakeStorefrontB();
  readonly gateway = new FakeGateway();
  readonly fraud = new FakeFraud(new Map([[this.fraudKey, this.fraudTeam]]));
  readonly smtp = new FakeSmtp();
  store!: FakeStore;

  async start(): Promise<void> {
    await Promise.all([this.erp.start(), this.bigcommerce.start(), this.woocommerce.start(), this.gateway.start(), this.fraud.start(), this.smtp.start()]);
    this.store = this.bigcommerce.addStore({ hash: "demo1", accessToken: randomBytes(12).toString("hex"), clientId: randomBytes(8).toString("hex"), name: "Demo BigCommerce store" });
    for (const [i, item] of CATALOGUE.entries()) {
      this.erp.addItem(item.sku, 40 + i * 7);
      this.store.addProduct({ sku: item.sku, inventory_level: 10 });
      this.woocommerce.shop.addProduct({ sku: item.sku, manage_stock: true, stock_quantity: 10 });
    }
  }

  /** The platform's settings for talking to this world. */
  environment(): Record<string, string> {
    return {
      ERP_BASE_URL: this.erp.url,
      ERP_TOKEN: this.erpToken,
      GATEWAY_QUERY_URL: this.gateway.url,
      FRAUD_API_URL: this.fraud.url,
      SMTP_URL: this.smtp.url,
      ALERT_EMAIL_TO: "operators@demo.example",
    };
  }

  async stop(): Promise<void> {
    await Promise.all([this.erp.stop(), this.bigcommerce.stop(), this.woocommerce.stop(), this.gateway.stop(), this.fraud.stop(), this.smtp.stop()]);
  }
}
