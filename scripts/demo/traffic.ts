// What happens to the platform during `pnpm demo`, sent as the real
// senders send it: the ERP pushes orders with its API key, the acquirer posts
// dispute webhooks, storefronts post product webhooks, an operator asks for
// syncs and a report over REST with HTTP Basic.
import { createHash, createHmac } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { PrismaClient } from "@mw/platform";
import { disputePayload } from "../chaos/traffic.ts";
import { CATALOGUE, type DemoWorld } from "./world.ts";

interface DemoSite {
  id: number;
  name: string;
  key: string;
  platform: "storefront_a" | "storefront_b";
}

interface Pushed {
  site: DemoSite;
  number: string;
  lines: { sku: string; quantity: number }[];
  shipped: boolean;
  disputed: boolean;
}

/** The ERP document number an export gives the sales order (site id and order number). */
const erpDocument = (order: Pushed) => `${order.site.id}-${order.number}`;

const today = () => new Date().toISOString().slice(0, 10);

export class DemoTraffic {
  private readonly sites: DemoSite[] = [];
  private readonly pushed: Pushed[] = [];
  private ticks = 0;
  private disputes = 0;
  private productWebhooks = 0;
  private refused = 0;

  constructor(
    private readonly world: DemoWorld,
    private readonly prisma: PrismaClient,
    private readonly root: string,
    private readonly authorization: string,
  ) {}

  private async call(method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: this.authorization }): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${this.root}${path}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
  }

  private async expect(status: number, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const res = await this.call(method, path, body);
    if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Two storefront sites with every sync on, an ERP API key each, and the merchant account disputes come in for. */
  async seed(): Promise<void> {
    const { world } = this;
    const common = { tracking_sync: true, inventory_sync: true, webhook_secret: world.webhookSecret, fraud_team_id: world.fraudTeam, fraud_api_key: world.fraudKey };
    const bigcommerce = await this.expect(201, "POST", "/sites", {
      name: "Demo BigCommerce",
      platform: "storefront_a",
      site_url: "https://demo-bigcommerce.example",
      api_base_url: world.bigcommerce.baseUrl(world.store.hash),
      api_key: world.store.clientId,
      api_secret: world.store.accessToken,
      ...common,
    });
    const woocommerce = await this.expect(201, "POST", "/sites", {
      name: "Demo WooCommerce",
      platform: "storefront_b",
      site_url: world.woocommerce.url,
      api_key: world.woocommerce.consumerKey,
      api_secret: world.woocommerce.consumerSecret,
      ...common,
    });
    for (const [site, platform] of [[bigcommerce, "storefront_a"], [woocommerce, "storefront_b"]] as const) {
      const id = site.id as number;
      const key = await this.expect(201, "POST", `/sites/${id}/api-keys`, { label: "Demo ERP" });
      this.sites.push({ id, name: site.name as string, key: key.key as string, platform });
    }
    await this.expect(201, "POST", "/merchant-accounts", { mid: world.mid, security_key: world.gatewayKey, name: "Demo MID" });
  }

  /** One step of traffic, every two seconds: an order always, the rest in turn. */
  async tick(): Promise<void> {
    this.ticks += 1;
    await this.order();
    if (this.ticks % 3 === 0) this.ship();
    if (this.ticks % 5 === 0) await this.dispute();
    if (this.ticks % 7 === 0) await this.productWebhook();
    if (this.ticks % 20 === 10) await this.syncs();
  }

  /** The last syncs and the report, then up to a minute for the queues to settle. */
  async finish(): Promise<void> {
    this.ship();
    await this.syncs();
    await this.expect(202, "POST", "/reports", { type: "order-intake-daily", date: today() });
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !(await this.settled())) await sleep(1000);
  }

  /** An order placed on a storefront, then pushed by the ERP with the storefront's number. */
  private async order(): Promise<void> {
    const site = this.sites[this.ticks % this.sites.length]!;
    const lines = [CATALOGUE[this.ticks % CATALOGUE.length]!, CATALOGUE[(this.ticks * 7 + 3) % CATALOGUE.length]!].map((item, i) => ({ sku: item.sku, quantity: 1 + ((this.ticks + i) % 3) }));
    const number =
      site.platform === "storefront_a" ? String(this.world.store.addOrder({ status_id: 9, lines }).id) : this.world.woocommerce.shop.addOrder({ status: "processing", lines }).number;
    const body = {
      order_number: number,
      date: today(),
      payment_method: "pay_1",
      transaction_id: `TX-${number}`,
      billing_address: { first_name: "Dana", last_name: `Shopper ${number}`, address1: "12 Harbour Street", city: "Portland", state: "OR", postal_code: "97201", email: `dana${number}@demo.example` },
      line_items: [
        ...lines.map((line, i) => ({ line_number: i + 1, sku: line.sku, quantity: line.quantity, unit_price: CATALOGUE.find((item) => item.sku === line.sku)!.price })),
        { line_number: lines.length + 1, sku: "SHIPPING", quantity: 1, unit_price: 4.95 },
      ],
    };
    const res = await this.call("POST", "/external/orders", body, { authorization: `Bearer ${site.key}` });
    if (res.status === 201 || res.status === 200) this.pushed.push({ site, number, lines, shipped: false, disputed: false });
    else this.refused += 1;
  }

  /** The warehouse ships exported orders: the ERP gets a sales shipment with a tracking number. */
  private ship(): void {
    const exported = new Map(this.world.erp.salesOrders.map((order) => [order.externalDocumentNumber, order.number]));
    for (const order of this.pushed.filter((candidate) => !candidate.shipped)) {
      const salesOrder = exported.get(erpDocument(order));
      if (!salesOrder) continue;
      order.shipped = true;
      this.world.erp.addShipment({
        orderNumber: salesOrder,
        shipmentDate: today(),
        shippingAgentCode: "UPS",
        packageTrackingNo: `1Z999AA1${createHash("sha1").update(order.number).digest("hex").slice(0, 10).toUpperCase()}`,
        salesShipmentLines: order.lines.map((line, i) => ({ sequence: i + 1, lineType: "Item", lineObjectNumber: line.sku, quantity: line.quantity })),
      });
    }
  }

  /** A cardholder disputes a sale: the gateway knows the transaction, the acquirer posts the case. */
  private async dispute(): Promise<void> {
    const order = this.pushed.find((candidate) => !candidate.disputed);
    if (!order) return;
    order.disputed = true;
    this.disputes += 1;
    const auth = `A${order.number}`;
    this.world.gateway.addTransaction(this.world.gatewayKey, { transaction_id: `9${order.number}`, authorization_code: auth, date: new Date(), order_id: order.number, amount: "49.90" });
    // Every third case matches two sales: the platform cannot choose, and e-mails the operators.
    if (this.disputes % 3 === 0) this.world.gateway.addTransaction(this.world.gatewayKey, { transaction_id: `8${order.number}`, authorization_code: auth, date: new Date(), amount: "49.90" });
    await this.call("POST", "/webhooks/acquirer", disputePayload(`DEMO-${order.number}`, this.world.mid, auth, today()), {});
  }

  /** A merchant edits a product in a storefront admin; the storefront's webhook says so. */
  private async productWebhook(): Promise<void> {
    this.productWebhooks += 1;
    const woo = this.productWebhooks % 2 === 0;
    const site = this.sites.find((candidate) => candidate.platform === (woo ? "storefront_b" : "storefront_a"))!;
    if (woo) {
      const product = [...this.world.woocommerce.shop.products.values()][this.productWebhooks % CATALOGUE.length]!;
      const body = JSON.stringify({ id: product.id, name: `Product ${product.sku}`, sku: product.sku, stock_quantity: product.stock_quantity, parent_id: 0 });
      await this.call("POST", `/webhooks/products/${site.id}`, body, {
        "x-wc-webhook-topic": "product.updated",
        "x-wc-webhook-resource": "product",
        "x-wc-webhook-event": "updated",
        "x-wc-webhook-delivery-id": createHash("md5").update(`demo-${this.productWebhooks}`).digest("hex"),
        "x-wc-webhook-signature": createHmac("sha256", this.world.webhookSecret).update(body).digest("base64"),
      });
    } else {
      const product = this.world.store.products[this.productWebhooks % CATALOGUE.length]!;
      const body = JSON.stringify({
        scope: "store/product/updated",
        store_id: "1000001",
        data: { type: "product", id: product.id },
        hash: createHash("sha1").update(`demo-${this.productWebhooks}`).digest("hex"),
        created_at: Math.floor(Date.now() / 1000),
        producer: `stores/${this.world.store.hash}`,
      });
      await this.call("POST", `/webhooks/products/${site.id}`, body, { "x-webhook-secret": this.world.webhookSecret });
    }
  }

  private async syncs(): Promise<void> {
    await this.expect(200, "POST", "/tracking/sync-all");
    await this.call("POST", "/testing/inventory/sync", { site_id: "all" });
  }

  private async settled(): Promise<boolean> {
    const counts = await this.counts();
    return counts.waiting === 0 && counts.exported + counts.failedOrders >= this.pushed.length;
  }

  /** What a user would look at: orders exported, chargebacks recorded, tracking numbers and stock on the storefronts, mail sent. */
  async counts(): Promise<{ line: string; failed: string[]; waiting: number; exported: number; failedOrders: number }> {
    const [exported, verified, chargebacks, linkages, reports] = await Promise.all([
      this.prisma.order.count({ where: { imported: 1 } }),
      this.prisma.order.count({ where: { verified: 1 } }),
      this.prisma.chargeback.count(),
      this.prisma.disputeLinkage.count(),
      this.prisma.report.count({ where: { status: "completed" } }),
    ]);
    const trackingNumbers =
      [...this.world.store.orders.values()].reduce((sum, order) => sum + order.shipments.length, 0) +
      [...this.world.woocommerce.shop.orders.values()].reduce((sum, order) => sum + order.trackings.length + order.notes.filter((note) => /tracking/i.test(note.note)).length, 0);
    const stockWrites = this.world.store.adjustments.length + this.world.woocommerce.requests.filter((request) => request.method === "POST" && request.url.includes("/products/")).length;
    const queues = (await fetch(`${this.root.replace(/\/middleware\/v1$/, "")}/admin/queues/api/queues`, { headers: { authorization: this.authorization } }).then((res) => res.json())) as {
      queues: { name: string; counts: Record<string, number> }[];
    };
    const failed = queues.queues.filter((queue) => (queue.counts.failed ?? 0) > 0).map((queue) => `${queue.name} ${queue.counts.failed}`);
    const waiting = queues.queues.reduce((sum, queue) => sum + (queue.counts.waiting ?? 0) + (queue.counts.active ?? 0) + (queue.counts.prioritized ?? 0), 0);
    const failedOrders = queues.queues.find((queue) => queue.name === "orders")?.counts.failed ?? 0;
    const line =
      `orders ${this.pushed.length} pushed (${this.refused} refused), ${exported} exported, ${verified} verified; ` +
      `disputes ${this.disputes} sent, ${linkages} linked, ${chargebacks} chargebacks; ` +
      `tracking numbers on storefronts ${trackingNumbers}; stock writes ${stockWrites}; product webhooks ${this.productWebhooks}; ` +
      `reports ${reports}; e-mails ${this.world.smtp.messages.length}`;
    return { line, failed, waiting, exported, failedOrders };
  }
}
