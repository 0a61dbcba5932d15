import { randomInt } from "node:crypto";
import { createMerchant } from "@mw/domains/disputes";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGateway } from "../fakes/gateway.ts";
import { userWith } from "../support/api.ts";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged, runCli as cli } from "../support/processes.ts";
import { until } from "../support/wait.ts";

// A dispute driven through a gateway outage by the real worker, its state read
// at each step from GET /disputes, the console (Chromium) and `pnpm cli dispute:show`.
const RUN = String(randomInt(100_000, 999_999));
const MID = `6${RUN}`;
const GATEWAY_KEY = `sk_gw_${RUN}_lifecycle`;
const ROOT = "/middleware/v1";
let gateway: FakeGateway;
let worker: InProcessWorker;
let admin: string;
let page: Page;
let operator: string;
const ui = useConsole();

interface DisputeRow {
  webhook_id: number;
  case_id: string | null;
  outcome: string | null;
  state: string;
  state_reason: string | null;
  next_attempt_at: string | null;
  attempts: number;
  last_error: string | null;
  jobs: number;
  job_id: string | null;
  job_state: string | null;
  job_url: string | null;
}

beforeAll(async () => {
  await ui.api.ctx.queues.get("disputes").obliterate({ force: true });
  gateway = await new FakeGateway().start();
  await createMerchant(ui.api.ctx, ui.api.ctx.config.ENCRYPTION_KEY, { mid: MID, security_key: GATEWAY_KEY });
  gateway.addTransaction(GATEWAY_KEY, { transaction_id: `${RUN}0001`, authorization_code: "LC0001", date: new Date("2026-11-01T15:42:10Z"), order_id: "WEB-1", card: "4111111111111111" });
  admin = await userWith(ui.api, "manage_middleware");
  operator = await consoleUser(ui.api, ["manage_middleware"]);
  worker = await startInProcessWorker({ WORKER_QUEUES: "disputes", GATEWAY_QUERY_URL: gateway.url, HTTP_TIMEOUT_MS: "2000" });
  await worker.waitFor(logged("workers started"), 120_000);
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await gateway.stop();
});

function webhook(caseId: string, mid = MID): Record<string, unknown> {
  return {
    event_type: "dispute.created",
    timestamp: "2026-11-20T10:15:30Z",
    api_response: JSON.stringify({ case_id: caseId }),
    request_payload: JSON.stringify({ mid, auth_code: "LC0001", transaction_date: "2026-11-01", amount: "49.90", card_first6: "411111", card_last4: "1111", reason_code: "10.4" }),
  };
}

async function deliver(caseId: string, mid?: string): Promise<number> {
  const res = await fetch(`${ui.api.url}${ROOT}/webhooks/acquirer`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(webhook(caseId, mid)) });
  expect(res.status).toBe(202);
  return ((await res.json()) as { webhook_id: number }).webhook_id;
}

async function rest<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${ui.api.url}${ROOT}${path}`, { ...init, headers: { authorization: admin, "content-type": "application/json" } });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as T;
}

async function listed(query: string): Promise<{ disputes: DisputeRow[]; total: number }> {
  return rest(`/disputes?${query}`);
}

async function consoleRow(caseId: string) {
  // A test's browser contexts close after it: each test signs in on its own page.
  if (!page || page.isClosed()) {
    page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, operator);
  }
  await page.goto(`${ui.api.url}/console/operations?kind=case&key=${encodeURIComponent(caseId)}`);
  const row = page.locator("#dispute-lifecycle tbody tr");
  expect(await row.count()).toBe(1);
  return { state: await row.locator(".dispute-state").textContent(), text: (await row.textContent()) ?? "", jobs: await page.locator("#found-jobs tbody code").allTextContents() };
}

describe("a dispute's lifecycle through a gateway outage", () => {
  it("reads retrying with the gateway's error and the next attempt, then matched, then a replay, alike from REST, the console and the CLI", async () => {
    const caseId = `LC${RUN}1`;
    const stopOutage = gateway.intercept(() => ({ status: 503, headers: { "content-type": "text/plain" }, body: "Service Unavailable" }));
    const webhookId = await deliver(caseId);

    let row: DisputeRow | undefined;
    await until(
      async () => (row = (await listed(`case_id=${caseId}`)).disputes[0])?.state === "retrying",
      () => `the dispute to be retrying (last ${JSON.stringify(row)}); worker:\n${worker.output().slice(-2000)}`,
      30_000,
    );
    expect(row).toMatchObject({ webhook_id: webhookId, case_id: caseId, outcome: null, jobs: 1, job_id: `dispute.acquirer_case_${caseId}`, job_state: "delayed" });
    expect(row!.attempts).toBeGreaterThanOrEqual(1);
    expect(row!.last_error).toMatch(/503|gateway/i);
    expect(row!.next_attempt_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Not finished: the pending filter holds it, the failed one does not.
    expect((await listed(`state=pending&case_id=${caseId}`)).total).toBe(1);
    expect((await listed(`state=failed&case_id=${caseId}`)).total).toBe(0);
    const seen = await consoleRow(caseId);
    expect(["retrying", "processing"]).toContain(seen.state);
    expect(seen.text).toMatch(/503|gateway/i);
    const shown = await cli("dispute:show", caseId);
    expect(shown.code).toBe(0);
    const fromCli = JSON.parse(shown.stdout) as DisputeRow;
    expect(fromCli).toMatchObject({ webhook_id: webhookId, case_id: caseId, outcome: null });
    expect(["retrying", "processing"]).toContain(fromCli.state);

    stopOutage();
    await until(
      async () => (row = (await listed(`case_id=${caseId}`)).disputes[0])?.state === "matched",
      () => `the dispute to be matched (last ${JSON.stringify(row)})`,
      60_000,
    );
    expect(row).toMatchObject({ outcome: "linked", job_state: "completed", next_attempt_at: null });
    expect((await consoleRow(caseId)).state).toBe("matched");
    expect(JSON.parse((await cli("dispute:show", caseId)).stdout)).toMatchObject({ state: "matched", outcome: "linked" });
    expect((await listed(`state=matched&case_id=${caseId}`)).total).toBe(1);

    // A replay (its job id carries a time) is found by the lifecycle and the job search alike.
    const replayed = await rest<{ job: { id: string } }>("/disputes/replay", { method: "POST", body: JSON.stringify({ case_id: caseId }) });
    expect(replayed.job.id).toMatch(new RegExp(`^dispute\\.acquirer_case_${caseId}\\.replay\\.\\d+$`));
    await until(
      async () => {
        row = (await listed(`case_id=${caseId}`)).disputes[0];
        return row?.job_state === "completed" && row.job_id === replayed.job.id;
      },
      () => `the replay to finish (last ${JSON.stringify(row)})`,
      30_000,
    );
    expect(row).toMatchObject({ jobs: 2, state: "matched" });
    expect((await consoleRow(caseId)).jobs).toEqual(expect.arrayContaining([replayed.job.id, `dispute.acquirer_case_${caseId}`]));
  }, 300_000);

  it("lists a dispute whose processing failed, with why, and counts it under the failed filter", async () => {
    const caseId = `LC${RUN}2`;
    const before = (await listed("state=failed")).total;
    const webhookId = await deliver(caseId, `5${RUN}`);
    let row: DisputeRow | undefined;
    await until(async () => (row = (await listed(`case_id=${caseId}`)).disputes[0])?.state === "failed", () => `the dispute to fail (last ${JSON.stringify(row)})`, 30_000);
    expect(row).toMatchObject({ webhook_id: webhookId, outcome: "no_account", job_state: "failed" });
    expect(row!.state_reason).toContain("No gateway account for the merchant id");
    const failed = await listed("state=failed");
    expect(failed.total).toBe(before + 1);
    expect(failed.disputes.map((entry) => entry.case_id)).toContain(caseId);
    expect((await listed(`outcome=no_account&case_id=${caseId}`)).total).toBe(1);
    expect((await consoleRow(caseId)).state).toBe("failed");
    expect(JSON.parse((await cli("dispute:show", caseId)).stdout)).toMatchObject({ state: "failed", outcome: "no_account" });
    expect((await cli("dispute:show", `NONE${RUN}`)).code).toBe(1);
  }, 240_000);
});
