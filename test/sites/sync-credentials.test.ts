import { sealCredentials } from "@mw/domains/sites";
import { trackingSyncJob } from "@mw/domains/tracking";
import type { Job } from "bullmq";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeSmtp } from "../fakes/smtp.ts";
import { restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { storefrontASite, storefrontBSite } from "../support/storefront-sites.ts";
import { startSyncHarness, type SyncHarness } from "../support/sync-harness.ts";
import { settled, until } from "../support/wait.ts";

// Issue 32: a sync whose upstream refuses its credentials makes /readyz degraded, naming the site and
// why, and the operators get one alert per failing credential, not one per run. The real worker entry
// point against fakes of WooCommerce, BigCommerce, the ERP and an SMTP relay; the real API for /readyz
// and PUT /sites/{id}.
const OPERATORS = "ops@agency.example";
let smtp: FakeSmtp;
let harness: SyncHarness;
let api: TestApi;
let admin: string;

beforeAll(async () => {
  smtp = await new FakeSmtp().start();
  harness = await startSyncHarness(["tracking", "inventory", "notifications"], { SMTP_URL: smtp.url, ALERT_EMAIL_TO: OPERATORS });
  api = await startApi();
  admin = await userWith(api, "manage_middleware");
}, 150_000);

beforeEach(async () => {
  harness.erp.reset();
  harness.fakeB.reset();
  // The slot's database is shared with the files before this one: their failures and their undelivered
  // operator alerts would show in /readyz beside this test's.
  await harness.prisma.syncCredentialFailure.deleteMany();
  await harness.prisma.operatorAlert.deleteMany();
});

afterAll(async () => {
  await api?.close();
  await harness?.close();
  await smtp?.stop();
});

let jobCounter = 0;
async function run(kind: "tracking" | "inventory", siteId: number): Promise<Job> {
  jobCounter += 1;
  const job =
    kind === "tracking"
      ? await harness.queues.add(trackingSyncJob, { site_id: siteId }, { jobId: `tracking-sync.${siteId}.creds.${jobCounter}`, attempts: 1 })
      : await harness.queues.get("inventory").add("inventory-sync", { site_id: siteId }, { jobId: `inventory-sync.creds.${jobCounter}`, attempts: 1 });
  return settled(harness.queues.get(kind), job, harness.worker);
}

interface Check {
  ok: boolean;
  error?: string;
}

interface Readiness {
  status: string;
  checks: Record<string, Check> & { credentials: Check };
}

async function readiness(): Promise<{ http: number; body: Readiness }> {
  const res = await fetch(`${api.url}/readyz`);
  return { http: res.status, body: (await res.json()) as Readiness };
}

/** The checks that fail; this test's worker keeps only its own queues' schedules, so `schedules` is always one of them. */
const failing = (body: Readiness) => Object.keys(body.checks).filter((name) => !body.checks[name]!.ok);

/**
 * The mails the operators got about this site's (or the ERP's) credentials. A failed run queued its
 * alert before it ended, so once the notifications queue is idle every alert raised so far is in the
 * relay (the worker records a delivery only after the relay took the mail).
 */
async function credentialMails(about: string) {
  const notifications = harness.queues.get("notifications");
  const owed = async () => Object.values(await notifications.getJobCounts("waiting", "active", "delayed", "prioritized")).reduce((sum, count) => sum + count, 0);
  await until(async () => (await owed()) === 0, () => "the alerts' deliveries", 30_000);
  return smtp.messages.filter((mail) => mail.subject.includes(about));
}

describe("a storefront that refuses the site's credentials", () => {
  it("degrades /readyz naming the site, alerts the operators once across runs, and ends when the credentials are changed or a run gets through", async () => {
    const { fakeB, prisma, key } = harness;
    const siteId = await storefrontBSite(prisma, key, fakeB, { api_credentials: sealCredentials({ client_id: fakeB.consumerKey, access_token: "cs_revoked" }, key) });
    const site = await prisma.site.findUniqueOrThrow({ where: { id: siteId } });
    const label = `site ${siteId} (${site.name})`;

    // Two syncs of the site, three runs: every one fails on the storefront's 401.
    for (const kind of ["tracking", "inventory", "tracking"] as const) {
      const job = await run(kind, siteId);
      expect(await job.getState()).toBe("failed");
      expect(job.failedReason).toContain("storefront_b answered HTTP 401: Consumer secret is invalid.");
    }
    const degraded = await readiness();
    expect(degraded.http).toBe(200);
    expect(degraded.body.status).toBe("degraded");
    expect(degraded.body.checks.credentials).toEqual({ ok: false, error: `${label}: storefront refused the credentials (HTTP 401)` });
    expect(failing(degraded.body)).toEqual(["schedules", "credentials"]);

    const mails = await credentialMails(label);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual([OPERATORS]);
    expect(mails[0]!.subject).toBe(`Syncs of ${label} stopped: the storefront refused the credentials (HTTP 401)`);
    expect(mails[0]!.text).toContain("during the tracking sync: storefront_b answered HTTP 401: Consumer secret is invalid.");
    expect(mails[0]!.text).toContain(`PUT /sites/${siteId}`);
    expect(mails[0]!.text).not.toContain(fakeB.consumerKey);

    // New credentials end it at once: /readyz stops naming the site, and the next run checks them.
    const fixed = await restCall(`${api.url}/middleware/v1/sites/${siteId}`, "PUT", { api_secret: fakeB.consumerSecret }, admin);
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect((await readiness()).body.checks.credentials).toEqual({ ok: true });
    expect(await (await run("tracking", siteId)).getState()).toBe("completed");

    // Refused again after it recovered: a new failure, and a second alert.
    const broken = await restCall(`${api.url}/middleware/v1/sites/${siteId}`, "PUT", { api_secret: "cs_typo" }, admin);
    expect(broken.status).toBe(200);
    expect(await (await run("inventory", siteId)).getState()).toBe("failed");
    expect(await (await run("tracking", siteId)).getState()).toBe("failed");
    expect((await readiness()).body.checks.credentials).toEqual({ ok: false, error: `${label}: storefront refused the credentials (HTTP 401)` });
    expect(await credentialMails(label)).toHaveLength(2);

    // Put right behind the middleware's back (no PUT): the next run that gets through ends it.
    await prisma.site.update({ where: { id: siteId }, data: { api_credentials: sealCredentials({ client_id: fakeB.consumerKey, access_token: fakeB.consumerSecret }, key) } });
    expect((await readiness()).body.checks.credentials.ok).toBe(false);
    expect(await (await run("inventory", siteId)).getState()).toBe("completed");
    const ready = await readiness();
    expect(ready.body.checks.credentials).toEqual({ ok: true });
    expect(failing(ready.body)).toEqual(["schedules"]);
    expect(await credentialMails(label)).toHaveLength(2);
  }, 120_000);
});

describe("an ERP that refuses the middleware's token", () => {
  it("degrades /readyz once for the ERP whichever sites' runs hit it, alerts once, and ends when a run gets through to the ERP", async () => {
    const { erp, fakeA, prisma, key } = harness;
    const first = await storefrontASite(prisma, key, fakeA);
    const second = await storefrontASite(prisma, key, fakeA);
    for (const { store } of [first, second]) store.addProduct({ sku: "ERP-GATE", inventory_level: 0 });
    erp.addItem("ERP-GATE", 4);
    erp.refuseEveryToken = true;

    for (const { siteId } of [first, second, first]) {
      const job = await run("inventory", siteId);
      expect(await job.getState()).toBe("failed");
      expect(job.failedReason).toBe("ERP answered HTTP 401: The credentials provided are incorrect.");
    }
    const degraded = await readiness();
    expect(degraded.body.status).toBe("degraded");
    expect(degraded.body.checks.credentials).toEqual({ ok: false, error: "ERP refused the credentials (HTTP 401)" });
    const mails = await credentialMails("ERP refused the credentials");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Syncs stopped: the ERP refused the credentials (HTTP 401)");
    expect(mails[0]!.text).toContain("ERP_TOKEN");

    // A run that got through without asking the ERP anything (no orders to look up) proves nothing of its token.
    erp.refuseEveryToken = false;
    expect(await (await run("tracking", second.siteId)).getState()).toBe("completed");
    expect((await readiness()).body.checks.credentials.ok).toBe(false);

    expect(await (await run("inventory", second.siteId)).getState()).toBe("completed");
    expect(second.store.stockOf("ERP-GATE")).toBe(4);
    expect((await readiness()).body.checks.credentials).toEqual({ ok: true });
    expect(await credentialMails("ERP refused the credentials")).toHaveLength(1);
  }, 120_000);
});
