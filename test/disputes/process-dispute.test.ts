import { createHash, randomInt } from "node:crypto";
import { createMerchant, processReceivedDispute } from "@mw/domains/disputes";
import { encryptSecret, openConnections, type Connections } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeFraud } from "../fakes/fraud.ts";
import { FakeGateway } from "../fakes/gateway.ts";
import { testConfig } from "../support/api.ts";
import { createDisputedOrder } from "../support/fixtures.ts";

// The dispute pipeline called in process, as the worker's handler calls it:
// a stored acquirer webhook in, linkage, chargeback and fraud submission out,
// against a fake gateway and a fake fraud service; no worker process, no API.

const RUN = String(randomInt(100_000, 999_999));
const MID = `6${RUN}`;
const GATEWAY_KEY = `sk_gw_${RUN}_inproc`;
const FRAUD_KEY = `sdk_${RUN}_inproc`;
const TEAM_ID = `team-in-${RUN}`;
const ORDER_NUMBER = `P${RUN}-1`;

let connections: Connections;
let gateway: FakeGateway;
let fraud: FakeFraud;

beforeAll(async () => {
  gateway = await new FakeGateway().start();
  fraud = await new FakeFraud(new Map([[FRAUD_KEY, TEAM_ID]])).start();
  connections = openConnections(testConfig({ GATEWAY_QUERY_URL: gateway.url, FRAUD_API_URL: fraud.url, HTTP_TIMEOUT_MS: "5000" }), "process-dispute-test");
  const { prisma, config } = connections;
  await createMerchant({ prisma }, config.ENCRYPTION_KEY, { mid: MID, security_key: GATEWAY_KEY });
  const site = await prisma.site.create({
    data: { name: `In-process fraud shop ${RUN}`, platform: "storefront_a", site_url: "https://in-process.example", fraud_team_id: TEAM_ID, fraud_api_key: encryptSecret(FRAUD_KEY, config.ENCRYPTION_KEY) },
  });
  await createDisputedOrder(prisma, site.id, ORDER_NUMBER);
});

afterAll(async () => {
  await connections?.close();
  await Promise.all([gateway?.stop(), fraud?.stop()]);
});

/** An acquirer dispute as the receiver stores it, without the job it would queue. */
async function storeWebhook(caseId: string, mid: string, authCode: string): Promise<number> {
  const payload = JSON.stringify({
    event_type: "dispute.created",
    timestamp: "2026-11-20T10:15:30Z",
    api_response: JSON.stringify({ case_id: caseId, case_number: `N-${caseId}` }),
    request_payload: JSON.stringify({ mid, auth_code: authCode, transaction_date: "2026-11-01", amount: "49.90", card_first6: "411111", card_last4: "1111", reason_code: "10.4" }),
    account_id: mid,
  });
  const row = await connections.prisma.webhookEvent.create({ data: { source: "acquirer", payload, payload_hash: createHash("sha256").update(payload).digest("hex") } });
  return row.id;
}

const deps = () => ({ sql: connections.sql, queues: connections.queues, config: connections.config, log: connections.logger });

describe("processReceivedDispute, in process", () => {
  it("links the transaction to our order, submits the chargeback once, and stores the case", async () => {
    const caseId = `IP${RUN}1`;
    const tx = `${RUN}7001`;
    gateway.addTransaction(GATEWAY_KEY, { transaction_id: tx, authorization_code: "IP0001", date: new Date("2026-11-01T15:42:10Z"), order_id: ORDER_NUMBER, card: "4111111111111111" });
    const webhookId = await storeWebhook(caseId, MID, "ip0001");

    const result = await processReceivedDispute(deps(), webhookId, () => true);

    expect(result).toEqual({ outcome: "linked", case_id: caseId, transaction_id: tx, order_number: ORDER_NUMBER, fraud: "submitted" });
    const { prisma } = connections;
    expect(await prisma.disputeLinkage.findUniqueOrThrow({ where: { case_id: caseId } })).toMatchObject({ mid: MID, gateway_transaction_id: tx, order_number: ORDER_NUMBER });
    const chargeback = await prisma.chargeback.findUniqueOrThrow({ where: { case_id: caseId } });
    expect(chargeback.fraud_submitted_at).toBeInstanceOf(Date);
    expect((JSON.parse(chargeback.action_log) as { step: string }[]).map((entry) => entry.step)).toEqual(["details", "account", "gateway", "match", "order", "linkage", "fraud", "chargeback"]);
    expect(await prisma.webhookEvent.findUniqueOrThrow({ where: { id: webhookId } })).toMatchObject({ outcome: "linked", processed_at: expect.any(Date) });

    // Run again (a replay): the fraud service is not sent the case a second time.
    expect(await processReceivedDispute(deps(), webhookId, () => true)).toMatchObject({ outcome: "linked", fraud: "skipped" });
    expect(fraud.chargebacks.filter((stored) => stored.chargebackId === caseId)).toHaveLength(1);
  });

  it("records the outcome of a dispute no merchant account has only when the failure ends the job", async () => {
    const webhookId = await storeWebhook(`IP${RUN}2`, `5${RUN}`, "IP0002");

    await expect(processReceivedDispute(deps(), webhookId, () => false)).rejects.toMatchObject({ code: "no_account" });
    expect(await connections.prisma.webhookEvent.findUniqueOrThrow({ where: { id: webhookId } })).toMatchObject({ outcome: null, processed_at: null });
    await expect(processReceivedDispute(deps(), webhookId, () => true)).rejects.toMatchObject({ code: "no_account" });
    expect(await connections.prisma.webhookEvent.findUniqueOrThrow({ where: { id: webhookId } })).toMatchObject({ outcome: "no_account", processed_at: expect.any(Date) });
  });
});
