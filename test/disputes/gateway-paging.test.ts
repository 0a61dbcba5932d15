import { createHash, randomInt } from "node:crypto";
import { createMerchant, processReceivedDispute } from "@mw/domains/disputes";
import { openConnections, type Connections } from "@mw/platform";
import { readNmiAnswer } from "@mw/providers/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGateway, UNPAGED_LIMIT } from "../fakes/gateway.ts";
import { testConfig } from "../support/api.ts";
import { createDisputedOrder } from "../support/fixtures.ts";

// A busy merchant: 2,500 transactions in the dispute's ±2-day window, more than
// one gateway answer holds. The disputed one is the last of them.

const RUN = String(randomInt(100_000, 999_999));
const MID = `7${RUN}`;
const GATEWAY_KEY = `sk_gw_${RUN}_paged`;
const ORDER_NUMBER = `G${RUN}-1`;
const ROWS = 2500;
const SALE = Date.parse("2026-11-01T00:00:00Z");

let connections: Connections;
let gateway: FakeGateway;

beforeAll(async () => {
  gateway = await new FakeGateway().start();
  connections = openConnections(testConfig({ GATEWAY_QUERY_URL: gateway.url, HTTP_TIMEOUT_MS: "10000" }), "gateway-paging-test");
  const { prisma, config } = connections;
  await createMerchant({ prisma }, config.ENCRYPTION_KEY, { mid: MID, security_key: GATEWAY_KEY });
  const site = await prisma.site.create({ data: { name: `Busy shop ${RUN}`, platform: "storefront_a", site_url: "https://busy.example" } });
  await createDisputedOrder(prisma, site.id, ORDER_NUMBER);
  for (let row = 1; row <= ROWS; row += 1) {
    const last = row === ROWS;
    gateway.addTransaction(GATEWAY_KEY, {
      transaction_id: `${RUN}${String(row).padStart(5, "0")}`,
      authorization_code: last ? "PG2500" : `X${row}`,
      date: new Date(SALE + row * 30_000),
      order_id: last ? ORDER_NUMBER : `other-${row}`,
    });
  }
});

afterAll(async () => {
  await connections?.close();
  await gateway?.stop();
});

async function storeWebhook(caseId: string): Promise<number> {
  const payload = JSON.stringify({
    event_type: "dispute.created",
    timestamp: "2026-11-20T10:15:30Z",
    api_response: JSON.stringify({ case_id: caseId }),
    request_payload: JSON.stringify({ mid: MID, auth_code: "PG2500", transaction_date: "2026-11-01", amount: "49.90", card_first6: "411111", card_last4: "1111" }),
    account_id: MID,
  });
  const row = await connections.prisma.webhookEvent.create({ data: { source: "acquirer", payload, payload_hash: createHash("sha256").update(payload).digest("hex") } });
  return row.id;
}

const deps = (maxPages?: number) => ({
  sql: connections.sql,
  queues: connections.queues,
  config: maxPages ? { ...connections.config, GATEWAY_QUERY_MAX_PAGES: maxPages } : connections.config,
  log: connections.logger,
});

describe("a gateway answer longer than one page", () => {
  it("is cut off when unpaged, as a real gateway's is", async () => {
    const body = new URLSearchParams({ security_key: GATEWAY_KEY, start_date: "20261030000000", end_date: "20261103235959" });
    const answer = await fetch(gateway.url, { method: "POST", body });
    expect(readNmiAnswer(await answer.text())?.transactions).toHaveLength(UNPAGED_LIMIT);
  });

  it("is read page by page to its end: the transaction in row 2,500 is linked", async () => {
    const caseId = `PG${RUN}1`;
    const webhookId = await storeWebhook(caseId);

    const result = await processReceivedDispute(deps(), webhookId, () => true);

    expect(result).toMatchObject({ outcome: "linked", transaction_id: `${RUN}02500`, order_number: ORDER_NUMBER });
    const pages = gateway.requests.slice(-3).map((request) => Object.fromEntries(new URLSearchParams(request.body)));
    expect(pages.map((form) => [form.result_limit, form.page_number])).toEqual([["1000", "0"], ["1000", "1"], ["1000", "2"]]);
  });

  it("fails the dispute, saying why, when the answer fills GATEWAY_QUERY_MAX_PAGES, rather than match on part of it", async () => {
    const caseId = `PG${RUN}2`;
    const webhookId = await storeWebhook(caseId);

    await expect(processReceivedDispute(deps(2), webhookId, () => true)).rejects.toMatchObject({
      code: "gateway_answer_incomplete",
      permanent: true,
      message: expect.stringContaining("fills GATEWAY_QUERY_MAX_PAGES (2 pages of 1000 transactions) and may hold more"),
    });
    const { prisma } = connections;
    expect(await prisma.webhookEvent.findUniqueOrThrow({ where: { id: webhookId } })).toMatchObject({ outcome: "failed", processed_at: expect.any(Date) });
    expect(await prisma.disputeLinkage.findUnique({ where: { case_id: caseId } })).toBeNull();
  });
});
