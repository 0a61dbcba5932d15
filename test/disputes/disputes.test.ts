import { randomInt } from "node:crypto";
import { createMerchant } from "@mw/domains/disputes";
import { createUser } from "@mw/domains/identity";
import { encryptSecret, type PrismaClient, type Queues } from "@mw/platform";
import { GatewayClient } from "@mw/providers/gateway";
import type { Job, Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeFraud } from "../fakes/fraud.ts";
import { FakeGateway, type SeedTransaction } from "../fakes/gateway.ts";
import { FakeSmtp } from "../fakes/smtp.ts";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { createDisputedOrder } from "../support/fixtures.ts";
import { logged, logLines, spawnEntry, type Spawned } from "../support/processes.ts";
import { settled, until } from "../support/wait.ts";

// Disputes end to end: delivered to the real API, processed by the real worker
// entry point as a child process, against real MariaDB and Redis, a fake NMI
// Query API, a fake Signifyd and an SMTP sink.
const ROOT = "/middleware/v1";
const USER_AGENT = /^Middleware\/\d+\.\d+\.\d+$/;
/** Per run, so rows other test files left in this database never match. */
const RUN = String(randomInt(100_000, 999_999));
const MID = `7${RUN}`;
const REFUSED_MID = `8${RUN}`;
const HANGING_MID = `9${RUN}`;
const GATEWAY_KEY = `sk_gw_${RUN}_Zq8rT2vX`;
const REFUSED_KEY = `sk_gw_${RUN}_revoked`;
const HANGING_KEY = `sk_gw_${RUN}_hanging`;
const FRAUD_KEY = `sdk_${RUN}_9fJk2LmN`;
const TEAM_ID = `team-${RUN}`;
const ALERT_TO = "disputes@example.com";
const ORDER_NUMBER = `W${RUN}-1`;
const PLAIN_ORDER = `W${RUN}-2`;
const PLAIN_TRANS_ID = `${RUN}0002`;
const REVOKED_ORDER = `W${RUN}-3`;
const VISA = "4111111111111111";
const MASTERCARD = "5555555555554444";
const SECRETS = [GATEWAY_KEY, REFUSED_KEY, HANGING_KEY, FRAUD_KEY];
/** Short lock and stalled-check periods so a killed worker's job comes back within seconds. */
const WORKER_ENV = { WORKER_QUEUES: "disputes,notifications", HTTP_TIMEOUT_MS: "5000", WORKER_LOCK_DURATION_MS: "2000", WORKER_STALLED_INTERVAL_MS: "1000" };

let api: TestApi;
let prisma: PrismaClient;
let queues: Queues;
let disputes: Queue;
let auth: string;
let gateway: FakeGateway;
let fraud: FakeFraud;
let smtp: FakeSmtp;
let worker: Spawned;
const workers: Spawned[] = [];

function spawnWorker(): Spawned {
  const proc = spawnEntry("packages/worker/src/main.ts", [], {
    ...WORKER_ENV,
    GATEWAY_QUERY_URL: gateway.url,
    FRAUD_API_URL: fraud.url,
    SMTP_URL: smtp.url,
    ALERT_EMAIL_TO: ALERT_TO,
    MAIL_FROM: "Middleware <middleware@example.com>",
  });
  workers.push(proc);
  return proc;
}

async function kill(proc: Spawned): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) {
    proc.child.kill("SIGKILL");
    await proc.exited();
  }
}

beforeAll(async () => {
  api = await startApi();
  ({ prisma, queues } = api.ctx);
  disputes = queues.get("disputes");
  // Jobs other test files left under this prefix would otherwise run here.
  await disputes.obliterate({ force: true });
  await queues.get("notifications").obliterate({ force: true });
  const admin = await createUser({ prisma }, { login: uniqueLogin("disputes"), capabilities: ["manage_middleware"] });
  auth = basicAuth(admin.login, admin.application_password);

  gateway = await new FakeGateway().start();
  fraud = await new FakeFraud(new Map([[FRAUD_KEY, TEAM_ID]])).start();
  smtp = await new FakeSmtp().start();

  const key = api.ctx.config.ENCRYPTION_KEY;
  await createMerchant({ prisma }, key, { mid: MID, security_key: GATEWAY_KEY });
  await createMerchant({ prisma }, key, { mid: REFUSED_MID, security_key: REFUSED_KEY });
  await createMerchant({ prisma }, key, { mid: HANGING_MID, security_key: HANGING_KEY });
  gateway.addTransaction(HANGING_KEY, { transaction_id: `${RUN}9000`, authorization_code: "HANG01", date: new Date("2026-11-01T12:00:00Z") });

  const fraudSite = await prisma.site.create({
    data: { name: `Fraud shop ${RUN}`, platform: "storefront_a", site_url: "https://fraud.example", fraud_team_id: TEAM_ID, fraud_api_key: encryptSecret(FRAUD_KEY, key) },
  });
  const plainSite = await prisma.site.create({ data: { name: `Plain shop ${RUN}`, platform: "storefront_b", site_url: "https://plain.example" } });
  await createDisputedOrder(prisma, fraudSite.id, ORDER_NUMBER, null);
  await createDisputedOrder(prisma, plainSite.id, PLAIN_ORDER, PLAIN_TRANS_ID);
  const revokedSite = await prisma.site.create({
    data: { name: `Revoked shop ${RUN}`, platform: "storefront_a", site_url: "https://revoked.example", fraud_team_id: TEAM_ID, fraud_api_key: encryptSecret("revoked-key", key) },
  });
  await createDisputedOrder(prisma, revokedSite.id, REVOKED_ORDER, null);

  worker = spawnWorker();
  await worker.waitFor(logged("workers started"));
});

afterAll(async () => {
  for (const proc of workers) await kill(proc);
  await Promise.all([gateway.stop(), fraud.stop(), smtp.stop()]);
  await api.close();
});

let seq = 0;
function nextCase(): string {
  seq += 1;
  return `CB${RUN}${String(seq).padStart(3, "0")}`;
}

/** The acquirer's webhook for a dispute; the MID comes with the leading zeros the merchant account is stored without. */
function dispute(caseId: string, record: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_type: "dispute.created",
    timestamp: "2026-11-20T10:15:30Z",
    api_response: JSON.stringify({ case_id: caseId, case_number: `N-${caseId}` }),
    request_payload: JSON.stringify({
      mid: `000${MID}`,
      auth_code: " ab12cd ",
      transaction_date: "2026-11-01",
      amount: "49.90",
      card_first6: "411111",
      card_last4: "1111",
      arn: `7400${caseId}`,
      reason_code: "10.4",
      reason_desc: "Other Fraud - Card Absent Environment",
      dispute_status: "open",
      ...record,
    }),
    remote_addr: "203.0.113.9",
    user_agent: "Acquirer/2.0",
    account_id: MID,
  };
}

/** Delivers through POST /webhooks/acquirer and waits for the dispute job to finish. */
async function deliver(payload: Record<string, unknown>, timeoutMs?: number): Promise<{ webhookId: number; job: Job }> {
  const res = await fetch(`${api.url}${ROOT}/webhooks/acquirer`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
  expect(res.status).toBe(202);
  const { webhook_id: webhookId } = (await res.json()) as { webhook_id: number };
  const caseId = (JSON.parse(payload.api_response as string) as { case_id: string }).case_id;
  return { webhookId, job: await finished(`dispute.acquirer_case_${caseId}`, timeoutMs) };
}

async function finished(id: string, timeoutMs?: number): Promise<Job> {
  await until(async () => (await disputes.getJob(id)) !== undefined, () => `job ${id} to exist`);
  return settled(disputes, (await disputes.getJob(id))!, worker, timeoutMs);
}

async function replay(caseId: string): Promise<Job> {
  const res = await fetch(`${api.url}${ROOT}/disputes/replay`, { method: "POST", headers: { "content-type": "application/json", authorization: auth }, body: JSON.stringify({ case_id: caseId }) });
  expect(res.status).toBe(202);
  return finished(((await res.json()) as { job: { id: string } }).job.id);
}

function seed(transactionId: string, overrides: Partial<SeedTransaction> = {}): void {
  gateway.addTransaction(GATEWAY_KEY, {
    transaction_id: transactionId,
    authorization_code: "AB12CD",
    date: new Date("2026-11-01T15:42:10Z"),
    order_id: `WEB-${transactionId}`,
    card: VISA,
    ...overrides,
  });
}

/** Each case gets its own auth code, so transactions seeded for other tests never match it. */
function authCode(caseId: string): string {
  return `A${caseId.slice(-5)}`;
}

async function webhookRow(id: number) {
  return prisma.webhookEvent.findUniqueOrThrow({ where: { id }, select: { outcome: true, processed_at: true } });
}

function fraudRequests(caseId: string) {
  return fraud.requests.filter((request) => request.body.includes(`"chargebackId":"${caseId}"`));
}

function actionSteps(actionLog: string): string[] {
  return (JSON.parse(actionLog) as { step: string }[]).map((entry) => entry.step);
}

describe("GatewayClient against the NMI Query API", () => {
  it("posts the key and the window in the form body, parses a single transaction as a list, and matches the auth code", async () => {
    const client = GatewayClient.fromConfig({ GATEWAY_QUERY_URL: gateway.url, HTTP_TIMEOUT_MS: 2000, GATEWAY_QUERY_MAX_PAGES: 20 });
    const tx = `${RUN}0100`;
    seed(tx, { date: new Date("2026-06-10T08:00:00Z"), card: MASTERCARD, authorization_code: "0123" });
    seed(`${RUN}0101`, { date: new Date("2026-06-10T09:00:00Z"), card: VISA, authorization_code: "0124" });
    const window = { start: new Date("2026-06-10T00:00:00Z"), end: new Date("2026-06-10T23:59:59Z") };

    const found = await client.findByAuthCode(GATEWAY_KEY, "0123", window);
    expect(found.scanned).toBe(2);
    expect(found.matches).toEqual([
      expect.objectContaining({
        transaction_id: tx,
        order_id: `WEB-${tx}`,
        authorization_code: "0123",
        cc_number: "5xxxxxxxxxxx4444",
        cc_bin: "555555",
        cc_exp: "0629",
        action: [expect.objectContaining({ amount: "49.90", action_type: "sale", date: "20260610080000" })],
      }),
    ]);
    const request = gateway.requests.at(-1)!;
    expect(request.url).toBe("/api/query.php");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request.headers["user-agent"]).toMatch(USER_AGENT);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      security_key: GATEWAY_KEY,
      start_date: "20260610000000",
      end_date: "20260610235959",
      result_limit: "1000",
      page_number: "0",
    });
    expect(await client.findByAuthCode(GATEWAY_KEY, " 0124 ", window)).toMatchObject({ scanned: 2, matches: [{ transaction_id: `${RUN}0101` }] });
    // A code the answer escapes is compared after parsing.
    seed(`${RUN}0102`, { date: new Date("2026-06-10T10:00:00Z"), authorization_code: "R&D<1" });
    expect(await client.findByAuthCode(GATEWAY_KEY, "r&d<1", window)).toMatchObject({ scanned: 3, matches: [{ transaction_id: `${RUN}0102`, authorization_code: "R&D<1" }] });
  });

  it("turns <error_response> into a permanent error that does not repeat the key", async () => {
    const client = GatewayClient.fromConfig({ GATEWAY_QUERY_URL: gateway.url, HTTP_TIMEOUT_MS: 2000, GATEWAY_QUERY_MAX_PAGES: 20 });
    const error = await client.findByAuthCode(REFUSED_KEY, "0123", { start: new Date(), end: new Date() }).catch((e: unknown) => e as Error & { permanent: boolean });
    expect(error).toMatchObject({ message: "payment gateway refused the query: Authentication Failed", permanent: true });
    expect(JSON.stringify(error)).not.toContain(REFUSED_KEY);
  });
});

describe("process-dispute (spec 1, 3.2 and 4.6)", () => {
  it("links the one transaction with the auth code, submits the chargeback to the fraud service and stores everything", async () => {
    const caseId = nextCase();
    const tx = `${RUN}1001`;
    // Matching is trimmed and case-insensitive; a sale with the code outside the ±2-day window does not count.
    seed(tx, { order_id: ORDER_NUMBER });
    seed(`${RUN}1002`, { date: new Date("2026-10-29T23:59:59Z") });
    seed(`${RUN}1003`, { authorization_code: "ZZ99ZZ" });
    const payload = dispute(caseId);
    const { webhookId, job } = await deliver(payload);

    expect(await job.getState()).toBe("completed");
    expect(job.returnvalue).toEqual({ outcome: "linked", case_id: caseId, transaction_id: tx, order_number: ORDER_NUMBER, fraud: "submitted" });
    const query = new URLSearchParams(gateway.requests.at(-1)!.body);
    expect([query.get("security_key"), query.get("start_date"), query.get("end_date"), query.get("cc_number")]).toEqual([
      GATEWAY_KEY,
      "20261030000000",
      "20261103235959",
      null,
    ]);

    const linkage = await prisma.disputeLinkage.findUniqueOrThrow({ where: { case_id: caseId } });
    expect(linkage).toMatchObject({
      case_number: `N-${caseId}`,
      mid: MID,
      gateway_transaction_id: tx,
      gateway_order_id: ORDER_NUMBER,
      order_number: ORDER_NUMBER,
      match_strategy: "authcode_card_match",
      auth_code: "ab12cd",
      arn: `7400${caseId}`,
      transaction_date: new Date("2026-11-01T00:00:00Z"),
      reason_code: "10.4",
      reason_desc: "Other Fraud - Card Absent Environment",
      dispute_status: "open",
    });
    expect(linkage.amount?.toString()).toBe("49.9");
    expect(linkage.linked_at).toBeInstanceOf(Date);
    expect(JSON.parse(linkage.acquirer_data)).toEqual(JSON.parse(payload.request_payload as string));
    expect(JSON.parse(linkage.gateway_data)).toMatchObject({ transaction_id: tx, cc_number: "4xxxxxxxxxxx1111", cc_bin: "411111", action: [{ action_type: "sale" }] });

    const [submitted] = fraudRequests(caseId);
    expect(fraudRequests(caseId)).toHaveLength(1);
    expect(submitted!.url).toBe("/v3/orders/events/chargebacks");
    expect(submitted!.headers.authorization).toBe(`Basic ${Buffer.from(`${FRAUD_KEY}:`).toString("base64")}`);
    expect(submitted!.headers["signifyd-team-id"]).toBe(TEAM_ID);
    expect(submitted!.headers["user-agent"]).toMatch(USER_AGENT);
    expect(JSON.parse(submitted!.body)).toEqual({
      orderId: ORDER_NUMBER,
      chargebackId: caseId,
      chargeback: {
        amount: { amount: 49.9, currencyCode: "USD" },
        reason: { processorReasonCode: "10.4", processorReasonDescription: "Other Fraud - Card Absent Environment" },
      },
    });

    const chargeback = await prisma.chargeback.findUniqueOrThrow({ where: { case_id: caseId } });
    expect(chargeback).toMatchObject({ mid: MID, gateway_transaction_id: tx, order_number: ORDER_NUMBER, reason_code: "10.4", acquirer_data: JSON.stringify(payload) });
    expect(chargeback.fraud_submitted_at).toBeInstanceOf(Date);
    expect(JSON.parse(chargeback.fraud_response!)).toMatchObject({ orderId: ORDER_NUMBER, chargebackSummary: { chargebackId: caseId, status: "OPEN" } });
    expect(actionSteps(chargeback.action_log)).toEqual(["details", "account", "gateway", "match", "order", "linkage", "fraud", "chargeback"]);
    const times = (JSON.parse(chargeback.action_log) as { at: string }[]).map((entry) => entry.at);
    expect([...times].sort()).toEqual(times);

    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "linked", processed_at: expect.any(Date) });
    // Every step at INFO, with its time and details, in the one line that ends the attempt.
    const lines = worker
      .output()
      .split("\n")
      .filter((line) => line.includes(`"case_id":"${caseId}"`))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([expect.objectContaining({ level: "info", message: "dispute processed", step: "done", outcome: "linked", job_id: job.id, case_id: caseId, webhook_id: webhookId, mid: MID })]);
    const steps = lines[0]!.steps as Record<string, unknown>[];
    expect(steps.map((step) => [step.step, step.at])).toEqual((JSON.parse(chargeback.action_log) as { step: string; at: string }[]).map((entry) => [entry.step, entry.at]));
    expect(steps.find((step) => step.step === "gateway")).toMatchObject({ scanned: 2, matched: 1 });
    expect(steps.find((step) => step.step === "match")).toMatchObject({ outcome: "linked", transaction_id: tx });
    // Bull Board's Logs tab shows each step as a row of its own.
    const { logs } = await disputes.getJobLogs(job.id!);
    expect(logs.find((row) => row.includes("Dispute read"))).toMatch(/ step=details transaction_date=2026-11-01 card_first6=411111 card_last4=1111$/);
    expect(logs.map((row) => row.replace(/^\d\d:\d\d:\d\d /, "").replace(/ [a-z_0-9]+=.*$/, ""))).toEqual([
      "INFO job started",
      "INFO Dispute read: MID " + MID + ", auth code ab12cd, transaction date 2026-11-01, amount 49.90",
      `INFO Gateway account found for MID ${MID}`,
      "INFO Gateway query 2026-10-30T00:00:00.000Z to 2026-11-03T23:59:59.000Z: 2 transactions, 1 with auth code ab12cd",
      `INFO One transaction has the auth code: ${tx}`,
      `INFO Order ${ORDER_NUMBER} of site ${(await prisma.order.findFirstOrThrow({ where: { number: ORDER_NUMBER } })).site_id} found`,
      `INFO Linkage stored: transaction ${tx}`,
      `INFO Chargeback ${caseId} submitted to the fraud service`,
      "INFO Chargeback record stored",
      "INFO dispute processed",
      "INFO job completed",
    ]);
  });

  it("runs a replayed dispute again without a second linkage, chargeback or fraud submission", async () => {
    const caseId = nextCase();
    seed(`${RUN}1101`, { order_id: ORDER_NUMBER, authorization_code: authCode(caseId) });
    const { webhookId } = await deliver(dispute(caseId, { auth_code: authCode(caseId) }));
    const first = await prisma.chargeback.findUniqueOrThrow({ where: { case_id: caseId } });

    const again = await replay(caseId);
    expect(await again.getState()).toBe("completed");
    expect(again.returnvalue).toMatchObject({ outcome: "linked", fraud: "skipped" });
    expect(await prisma.disputeLinkage.count({ where: { case_id: caseId } })).toBe(1);
    expect(await prisma.chargeback.count({ where: { case_id: caseId } })).toBe(1);
    expect(fraudRequests(caseId)).toHaveLength(1);
    expect(fraud.chargebacks.filter((c) => c.chargebackId === caseId)).toHaveLength(1);

    const second = await prisma.chargeback.findUniqueOrThrow({ where: { case_id: caseId } });
    expect(second.fraud_submitted_at).toEqual(first.fraud_submitted_at);
    expect(second.fraud_response).toBe(first.fraud_response);
    const log = JSON.parse(second.action_log) as { step: string; message: string }[];
    expect(log).toHaveLength(16);
    expect(log.filter((entry) => entry.step === "fraud").map((entry) => entry.message)).toEqual([
      `Chargeback ${caseId} submitted to the fraud service`,
      expect.stringMatching(new RegExp(`^Fraud service already has chargeback ${caseId} \\(submitted .+\\); not sent again$`)),
    ]);
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "linked" });
  });

  it("completes without linkage when no transaction has the auth code", async () => {
    const caseId = nextCase();
    // Keys are read case-insensitively, and the MID falls back to the top-level account_id.
    const { webhookId, job } = await deliver(dispute(caseId, { auth_code: undefined, Authorization_Code: authCode(caseId), mid: undefined }));
    expect(await job.getState()).toBe("completed");
    expect(job.returnvalue).toMatchObject({ outcome: "no_gateway_result", transaction_id: null });
    expect(await prisma.disputeLinkage.count({ where: { case_id: caseId } })).toBe(0);
    expect(await prisma.chargeback.count({ where: { case_id: caseId } })).toBe(0);
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "no_gateway_result", processed_at: expect.any(Date) });
    expect(gateway.queriedKeys().at(-1)).toBe(GATEWAY_KEY);
  });

  it("narrows several auth-code matches to the one with the dispute's first 6 and last 4 digits", async () => {
    const caseId = nextCase();
    const code = authCode(caseId);
    seed(`${RUN}1201`, { authorization_code: code, card: VISA });
    seed(`${RUN}1202`, { authorization_code: code, card: MASTERCARD });
    // A masked card number stands in for card_first6 + card_last4.
    const { webhookId, job } = await deliver(dispute(caseId, { auth_code: code, card_first6: undefined, card_last4: undefined, card_number: "555555******4444" }));
    expect(job.returnvalue).toMatchObject({ outcome: "linked_card", transaction_id: `${RUN}1202` });
    expect(await prisma.disputeLinkage.findUniqueOrThrow({ where: { case_id: caseId } })).toMatchObject({ gateway_transaction_id: `${RUN}1202` });
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "linked_card" });
  });

  it("completes without linkage when the card filter leaves none", async () => {
    const caseId = nextCase();
    const code = authCode(caseId);
    seed(`${RUN}1301`, { authorization_code: code, card: VISA });
    seed(`${RUN}1302`, { authorization_code: code, card: VISA });
    const { webhookId, job } = await deliver(dispute(caseId, { auth_code: code, card_first6: "555555", card_last4: "4444" }));
    expect(await job.getState()).toBe("completed");
    expect(job.returnvalue).toMatchObject({ outcome: "no_match", transaction_id: null });
    expect(await prisma.disputeLinkage.count({ where: { case_id: caseId } })).toBe(0);
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "no_match" });
  });

  it("links the first of several card matches, e-mails one alert, and sends no second one on replay", async () => {
    const caseId = nextCase();
    const code = authCode(caseId);
    for (const n of [1, 2, 3]) seed(`${RUN}140${n}`, { authorization_code: code, card: VISA, date: new Date(`2026-11-0${n}T10:00:00Z`) });
    const { webhookId, job } = await deliver(dispute(caseId, { auth_code: code }));
    expect(job.returnvalue).toMatchObject({ outcome: "linked_fallback", transaction_id: `${RUN}1401` });
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "linked_fallback" });

    const alerts = () => smtp.messages.filter((mail) => mail.subject.includes(caseId));
    await until(() => alerts().length === 1, () => `the alert e-mail; worker output:\n${worker.output()}`);
    const [mail] = alerts();
    expect(mail).toMatchObject({ from: "middleware@example.com", to: [ALERT_TO], subject: `Dispute ${caseId}: 3 gateway transactions match, first one linked` });
    expect(mail!.text).toContain(`The first, transaction ${RUN}1401, was linked as a fallback.`);
    for (const n of [1, 2, 3]) expect(mail!.text).toContain(`- transaction ${RUN}140${n}, order WEB-${RUN}140${n}, card 411111/4xxxxxxxxxxx1111`);

    expect(await (await replay(caseId)).getState()).toBe("completed");
    const notifications = queues.get("notifications");
    await until(async () => Object.values(await notifications.getJobCounts("waiting", "active", "delayed")).every((n) => n === 0), () => "the notifications queue to drain");
    expect(alerts()).toHaveLength(1);
    expect(await notifications.getJobState(`dispute-alert.${caseId}`)).toBe("completed");
    expect(await prisma.disputeLinkage.count({ where: { case_id: caseId } })).toBe(1);
  });

  it("keeps the linkage and skips the fraud service for a site without credentials, finding the order by transaction id", async () => {
    const caseId = nextCase();
    const code = authCode(caseId);
    gateway.addTransaction(GATEWAY_KEY, { transaction_id: PLAIN_TRANS_ID, authorization_code: code, date: new Date("2026-11-02T10:00:00Z"), order_id: "not-our-number" });
    const { webhookId, job } = await deliver(dispute(caseId, { auth_code: code, transaction_date: "2026-11-01T22:30:00-05:00" }));
    expect(job.returnvalue).toEqual({ outcome: "linked", case_id: caseId, transaction_id: PLAIN_TRANS_ID, order_number: PLAIN_ORDER, fraud: "skipped" });
    expect(await prisma.disputeLinkage.findUniqueOrThrow({ where: { case_id: caseId } })).toMatchObject({
      order_number: PLAIN_ORDER,
      gateway_order_id: "not-our-number",
      transaction_date: new Date("2026-11-02T00:00:00Z"),
    });
    const chargeback = await prisma.chargeback.findUniqueOrThrow({ where: { case_id: caseId } });
    expect(chargeback).toMatchObject({ order_number: PLAIN_ORDER, fraud_response: null, fraud_submitted_at: null });
    expect(JSON.parse(chargeback.action_log)).toContainEqual(expect.objectContaining({ step: "fraud", message: expect.stringMatching(/skipped: site \d+ has no fraud_team_id\/fraud_api_key$/) }));
    expect(fraudRequests(caseId)).toHaveLength(0);
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "linked" });
  });

  it("stores linkage and chargeback but fails the job at once when the fraud service refuses the site's key", async () => {
    const caseId = nextCase();
    seed(`${RUN}1601`, { order_id: REVOKED_ORDER, authorization_code: authCode(caseId) });
    const { webhookId, job } = await deliver(dispute(caseId, { auth_code: authCode(caseId) }));
    expect(await job.getState()).toBe("failed");
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe("fraud service answered HTTP 401: authorization: Invalid API key.");
    expect(await prisma.disputeLinkage.count({ where: { case_id: caseId } })).toBe(1);
    const chargeback = await prisma.chargeback.findUniqueOrThrow({ where: { case_id: caseId } });
    expect(chargeback).toMatchObject({ order_number: REVOKED_ORDER, fraud_response: null, fraud_submitted_at: null });
    expect(JSON.parse(chargeback.action_log)).toContainEqual(expect.objectContaining({ step: "fraud", message: `Fraud-service submission failed: ${job.failedReason}` }));
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "failed" });
  });

  it("fails at once with 'No gateway account found for MID' when no merchant account has the MID", async () => {
    const caseId = nextCase();
    const unknown = `6${RUN}`;
    const { webhookId, job } = await deliver(dispute(caseId, { mid: `00${unknown}` }));
    expect(await job.getState()).toBe("failed");
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(`No gateway account found for MID ${unknown}`);
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "no_account", processed_at: expect.any(Date) });
    expect(logLines(worker, "dispute processing failed").filter((line) => line.case_id === caseId)).toEqual([
      expect.objectContaining({ level: "error", mid: unknown, outcome: "no_account", job_id: job.id }),
    ]);
  });

  it("fails at once, naming what is missing, for a dispute that cannot be matched", async () => {
    const caseId = nextCase();
    const { webhookId, job } = await deliver(dispute(caseId, { auth_code: undefined, transaction_date: "2026-02-30" }));
    expect(await job.getState()).toBe("failed");
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe('Dispute cannot be matched: no authorization code (auth_code or authorization_code); transaction_date "2026-02-30" is not YYYY-MM-DD or ISO-8601');
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "invalid_dispute" });
  });

  it("fails at once when the gateway refuses the merchant's security key", async () => {
    const caseId = nextCase();
    const { webhookId, job } = await deliver(dispute(caseId, { mid: REFUSED_MID }));
    expect(await job.getState()).toBe("failed");
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe("payment gateway refused the query: Authentication Failed");
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "failed" });
  });
});

describe("a worker killed mid-dispute", () => {
  async function killAndRestart(caseId: string, reached: () => boolean): Promise<void> {
    await until(reached, () => `case ${caseId} to reach the hanging call; output:\n${worker.output()}`);
    await kill(worker);
    worker = spawnWorker();
  }

  it("re-runs a dispute whose gateway query never came back and links it once", async () => {
    const caseId = nextCase();
    gateway.hanging.add(HANGING_KEY);
    const delivered = deliver(dispute(caseId, { mid: HANGING_MID, auth_code: "HANG01" }), 25_000);
    await killAndRestart(caseId, () => gateway.queriedKeys().includes(HANGING_KEY));
    gateway.hanging.delete(HANGING_KEY);

    const { webhookId, job } = await delivered;
    expect(await job.getState()).toBe("completed");
    expect(job.returnvalue).toMatchObject({ outcome: "linked", transaction_id: `${RUN}9000` });
    expect(gateway.queriedKeys().filter((key) => key === HANGING_KEY)).toHaveLength(2);
    expect(await prisma.disputeLinkage.count({ where: { case_id: caseId } })).toBe(1);
    expect(await prisma.chargeback.count({ where: { case_id: caseId } })).toBe(1);
    expect(await webhookRow(webhookId)).toMatchObject({ outcome: "linked" });
  });

  it("counts the fraud service's 409 on the re-run as the submission the killed run made", async () => {
    const caseId = nextCase();
    seed(`${RUN}1501`, { order_id: ORDER_NUMBER, authorization_code: authCode(caseId) });
    fraud.hangAfterAccept = true;
    const delivered = deliver(dispute(caseId, { auth_code: authCode(caseId) }), 25_000);
    await killAndRestart(caseId, () => fraud.chargebacks.some((c) => c.chargebackId === caseId));

    const { job } = await delivered;
    expect(job.returnvalue).toMatchObject({ outcome: "linked", fraud: "already_submitted" });
    expect(fraud.chargebacks.filter((c) => c.chargebackId === caseId)).toHaveLength(1);
    expect(fraudRequests(caseId).map((request) => request.status)).toEqual([undefined, 409]);
    expect(await prisma.disputeLinkage.count({ where: { case_id: caseId } })).toBe(1);
    const chargeback = await prisma.chargeback.findUniqueOrThrow({ where: { case_id: caseId } });
    expect(chargeback.fraud_submitted_at).toBeInstanceOf(Date);
    expect(JSON.parse(chargeback.fraud_response!)).toMatchObject({ errors: { chargebackId: [`Chargeback ${caseId} already exists.`] } });
  });
});

describe("secrets", () => {
  it("never writes a security key or fraud API key to the workers' output", () => {
    const output = workers.map((proc) => proc.output()).join("\n");
    expect(output).toContain("dispute processed");
    for (const secret of SECRETS) expect(output).not.toContain(secret);
  });
});
