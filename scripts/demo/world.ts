// The outside world of `pnpm demo`: fakes of the ERP, both storefronts, the
// payment gateway, the fraud service, the AI provider, Harvest, Twilio and an
// SMTP sink, listening on local ports in this process, with a catalogue both
// sides agree on and a Harvest project for the story's project ticket.
import { randomBytes } from "node:crypto";
import { FakeErp } from "../../test/fakes/erp.ts";
import { FakeFraud } from "../../test/fakes/fraud.ts";
import { FakeGateway } from "../../test/fakes/gateway.ts";
import { FakeGemini } from "../../test/fakes/gemini.ts";
import { FakeHarvest, type FakeProject } from "../../test/fakes/harvest.ts";
import { FakeSms } from "../../test/fakes/sms.ts";
import { FakeSmtp } from "../../test/fakes/smtp.ts";
import { FakeStorefrontA, type FakeStore } from "../../test/fakes/storefront-a.ts";
import { FakeStorefrontB } from "../../test/fakes/storefront-b.ts";
import { demoAnswer } from "./model.ts";
import { numberOf, REDESIGN } from "./story.ts";

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
  readonly aiKey = randomBytes(16).toString("hex");
  readonly ai = new FakeGemini(this.aiKey);
  readonly harvest = new FakeHarvest();
  readonly sms = new FakeSms(`AC${randomBytes(16).toString("hex")}`, randomBytes(16).toString("hex"));
  store!: FakeStore;
  project!: FakeProject;

  private fakes() {
    return [this.erp, this.bigcommerce, this.woocommerce, this.gateway, this.fraud, this.smtp, this.ai, this.harvest, this.sms];
  }

  async start(): Promise<void> {
    await Promise.all(this.fakes().map((fake) => fake.start()));
    const otherwise = this.ai.respond;
    this.ai.respond = (call) => demoAnswer(call, otherwise);
    this.project = this.harvest.addProject({ name: `#${numberOf(REDESIGN.id)} ${REDESIGN.subject}`, budget: REDESIGN.project!.budget_hours });
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
      AI_BASE_URL: this.ai.url,
      AI_API_KEY: this.aiKey,
      HARVEST_ID_URL: this.harvest.url,
      HARVEST_API_URL: this.harvest.url,
      SMS_API_URL: this.sms.url,
      SMS_ACCOUNT_SID: this.sms.accountSid,
      SMS_AUTH_TOKEN: this.sms.authToken,
      SMS_FROM: "+15550001111",
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.fakes().map((fake) => fake.stop()));
  }
}
