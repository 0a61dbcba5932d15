import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { SCHEDULED_JOBS } from "@mw/domains/schedules";
import { isObjectNotFound, removeExpiredLogFiles, type PrismaClient } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSiteWithKey } from "../support/fixtures.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { settled } from "../support/wait.ts";

// Retention, run by the worker's own jobs against real MariaDB and Redis: what is past its time goes, what is
// recent or a business record stays, each statement deletes at most RETENTION_BATCH_SIZE rows, and a second run
// finds nothing more to do. Other files of this slot share the database, so every check looks at this file's rows.
const BATCH = 2;
let worker: InProcessWorker;
let prisma: PrismaClient;
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const tag = `ret${process.pid}`;
/** Ids far from what other files use: tickets, staff and conversations this file invents. */
const base = 900_000_000 + (process.pid % 1_000_000);

const RETENTION_JOBS = ["webhooks-retention", "sites-retention", "urgency-retention", "notifications-retention", "tickets-retention", "knowledge-retention", "reports-retention"];

beforeAll(async () => {
  worker = await startInProcessWorker({ RETENTION_BATCH_SIZE: String(BATCH) });
  prisma = worker.connections.prisma;
});
afterAll(() => worker.stop());

let runs = 0;
async function run(name: string) {
  const job = SCHEDULED_JOBS.find((definition) => definition.name === name)!;
  runs += 1;
  const queue = worker.connections.queues.get(job.queue);
  const done = await settled(queue, await queue.add(name, {}, { jobId: `${name}.test.${runs}` }), worker);
  expect(done.failedReason, `${name}: ${done.failedReason}`).toBeUndefined();
  return done.returnvalue as Record<string, number>;
}

/** The batches the job's log says the purge of `table` took, from its last "purged" line. */
function batchesOf(table: string): number {
  const lines = worker.output().split("\n").filter((line) => line.includes(`"retention: ${table} purged"`));
  return (JSON.parse(lines.at(-1)!) as { batches: number }).batches;
}

interface Seeded {
  siteId: number;
  webhooks: { oldProcessed: number[]; oldUnprocessed: number; recent: number };
  runs: { old: number[]; latestOld: number; oldRunning: number; recent: number };
  syncErrors: { old: number[]; recent: number };
  snapshots: { old: number[]; newest: number; alone: number };
  history: { oldAnalysis: number[]; oldAlert: number; recent: number };
  notifications: { old: number[]; recent: number };
  alerts: { gone: number[]; kept: number[] };
  changes: { old: number[]; recent: number };
  audit: { old: number; recent: number };
  conversations: { old: number; recent: number };
  reports: { old: number; oldKey: string; recent: number; recentKey: string };
  business: { order: number; linkage: number; chargeback: number };
}

async function seed(): Promise<Seeded> {
  const { siteId } = await createSiteWithKey(prisma, { name: `Retention ${tag}` });
  const webhook = (i: string, received: Date, processed: Date | null) =>
    prisma.webhookEvent.create({ data: { source: "acquirer", event_id: `${tag}-${i}`, payload: "{}", payload_hash: "a".repeat(64), received_at: received, processed_at: processed }, select: { id: true } }).then((row) => row.id);
  const oldProcessed: number[] = [];
  for (let i = 0; i < 5; i += 1) oldProcessed.push(await webhook(`old-${i}`, daysAgo(41), daysAgo(40)));
  const webhooks = { oldProcessed, oldUnprocessed: await webhook("stuck", daysAgo(40), null), recent: await webhook("recent", daysAgo(2), daysAgo(2)) };

  const syncRun = (status: string, started: Date) => prisma.syncRun.create({ data: { site_id: siteId, kind: "tracking", status, started_at: started }, select: { id: true } }).then((row) => row.id);
  const oldRuns = [await syncRun("completed", daysAgo(120)), await syncRun("completed", daysAgo(110)), await syncRun("failed", daysAgo(105))];
  const runs = { old: oldRuns, latestOld: await syncRun("failed", daysAgo(100)), oldRunning: await syncRun("running", daysAgo(100)), recent: await syncRun("completed", daysAgo(1)) };
  const syncError = (created: Date) => prisma.syncError.create({ data: { source: tag, message: "m", site_id: siteId, created_at: created }, select: { id: true } }).then((row) => row.id);
  const syncErrors = { old: [await syncError(daysAgo(100)), await syncError(daysAgo(95))], recent: await syncError(daysAgo(3)) };

  const snapshot = (ticket: number, created: Date) =>
    prisma.aiSnapshot.create({ data: { ticket_id: ticket, urgency: "LOW", urgency_percentage: 10, estimated_hours: 1, summary: "s", timeline: "t", suggested_title: "x", model_used: "m", created }, select: { id: true } }).then((row) => row.id);
  const snapshots = {
    old: [await snapshot(base, daysAgo(300)), await snapshot(base, daysAgo(250)), await snapshot(base, daysAgo(200))],
    newest: await snapshot(base, daysAgo(190)),
    alone: await snapshot(base + 1, daysAgo(400)),
  };
  const history = (ticket: number, event: string, channel: string | null, created: Date) =>
    prisma.aiHistory.create({ data: { ticket_id: ticket, event, channel, created }, select: { id: true } }).then((row) => row.id);
  const histories = {
    oldAnalysis: [await history(base, "analysis", null, daysAgo(200)), await history(base, "analysis", null, daysAgo(190))],
    oldAlert: await history(base, "critical_alert", "email", daysAgo(300)),
    recent: await history(base, "analysis", null, daysAgo(5)),
  };

  const notification = (ticket: number, created: Date) =>
    prisma.staffNotification.create({ data: { staff_id: base, ticket_id: ticket, kind: "critical", title: "t", body: "b", created }, select: { id: true } }).then((row) => row.id);
  const notifications = { old: [await notification(1, daysAgo(40)), await notification(2, daysAgo(35))], recent: await notification(3, daysAgo(1)) };
  const alert = async (key: string, status: string, updated: Date) => {
    const row = await prisma.operatorAlert.create({ data: { alert_key: `${tag}-${key}`, subject: "s", text: "t", status }, select: { id: true } });
    // `updated` follows every write; set it as a row this old would have it.
    await prisma.$executeRaw`UPDATE operator_alerts SET updated = ${updated} WHERE id = ${row.id}`;
    return row.id;
  };
  const alerts = {
    gone: [await alert("delivered", "delivered", daysAgo(100)), await alert("dismissed", "dismissed", daysAgo(95))],
    kept: [await alert("undelivered", "undelivered", daysAgo(100)), await alert("pending", "pending", daysAgo(100)), await alert("recent", "delivered", daysAgo(10))],
  };

  const change = (created: Date) => prisma.ticketChange.create({ data: { ticket_id: base, fields: {}, created }, select: { id: true } }).then((row) => row.id);
  const changes = { old: [await change(daysAgo(40)), await change(daysAgo(31))], recent: await change(daysAgo(1)) };
  const recipientChange = (changed: Date) =>
    prisma.staffRecipientChange.create({ data: { staff_id: base, staff_name: tag, changes: "{}", source: "signal", signal: "{}", changed_at: changed }, select: { id: true } }).then((row) => row.id);
  const audit = { old: await recipientChange(daysAgo(400)), recent: await recipientChange(daysAgo(30)) };

  const conversation = (updated: Date) =>
    prisma.assistantConversation
      .create({ data: { staff_id: base, title: tag, created: updated, updated, messages: { create: [{ role: "user", content: "q" }, { role: "assistant", content: "a" }] } }, select: { id: true } })
      .then((row) => row.id);
  const conversations = { old: await conversation(daysAgo(400)), recent: await conversation(daysAgo(10)) };

  const report = async (key: string, created: Date) => {
    const storageKey = `reports/${tag}/${key}.csv`;
    await worker.connections.storage.put(storageKey, "a,b\n", "text/csv");
    const row = await prisma.report.create({ data: { type: "order-intake-daily", report_key: `${tag}:${key}`, params: {}, status: "completed", storage_key: storageKey, created_at: created }, select: { id: true } });
    return { id: row.id, storageKey };
  };
  const oldReport = await report("old", daysAgo(400));
  const recentReport = await report("recent", daysAgo(10));

  // Business records as old as anything above: kept for good.
  const order = await prisma.order.create({
    data: { site_id: siteId, number: `${tag}-O`, dateadded: daysAgo(800), payment_method: "pay_1", contact_id: 1, shipping_agent_code: "FEDEX", shipping_agent_service: "GROUND", payload_hash: "b".repeat(64), created_at: daysAgo(800) },
    select: { id: true },
  });
  const linkage = await prisma.disputeLinkage.create({
    data: { case_id: `${tag}-case`, mid: "1", gateway_transaction_id: "1", match_strategy: "auth_code", acquirer_data: "{}", gateway_data: "{}", linked_at: daysAgo(800), created_at: daysAgo(800) },
    select: { id: true },
  });
  const chargeback = await prisma.chargeback.create({ data: { case_id: `${tag}-case`, mid: "1", acquirer_data: "{}", action_log: "[]", created_at: daysAgo(800) }, select: { id: true } });

  return {
    siteId,
    webhooks,
    runs,
    syncErrors,
    snapshots,
    history: histories,
    notifications,
    alerts,
    changes,
    audit,
    conversations,
    reports: { old: oldReport.id, oldKey: oldReport.storageKey, recent: recentReport.id, recentKey: recentReport.storageKey },
    business: { order: order.id, linkage: linkage.id, chargeback: chargeback.id },
  };
}

const ids = async (rows: Promise<{ id: number }[]>) => (await rows).map((row) => row.id).sort((a, b) => a - b);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
async function stored(key: string): Promise<boolean> {
  try {
    (await worker.connections.storage.get(key)).body.destroy();
    return true;
  } catch (error) {
    if (isObjectNotFound(error)) return false;
    throw error;
  }
}

/** What is left of the seeded rows, table by table. */
async function remaining(s: Seeded) {
  const all = (values: number[]) => ({ id: { in: values } });
  return {
    webhooks: await ids(prisma.webhookEvent.findMany({ where: all([...s.webhooks.oldProcessed, s.webhooks.oldUnprocessed, s.webhooks.recent]), select: { id: true } })),
    runs: await ids(prisma.syncRun.findMany({ where: { site_id: s.siteId }, select: { id: true } })),
    syncErrors: await ids(prisma.syncError.findMany({ where: { source: tag }, select: { id: true } })),
    snapshots: await ids(prisma.aiSnapshot.findMany({ where: { ticket_id: { in: [base, base + 1] } }, select: { id: true } })),
    history: await ids(prisma.aiHistory.findMany({ where: { ticket_id: base }, select: { id: true } })),
    notifications: await ids(prisma.staffNotification.findMany({ where: { staff_id: base }, select: { id: true } })),
    alerts: await ids(prisma.operatorAlert.findMany({ where: { alert_key: { startsWith: tag } }, select: { id: true } })),
    changes: await ids(prisma.ticketChange.findMany({ where: { ticket_id: base }, select: { id: true } })),
    audit: await ids(prisma.staffRecipientChange.findMany({ where: { staff_id: base }, select: { id: true } })),
    conversations: await ids(prisma.assistantConversation.findMany({ where: { staff_id: base }, select: { id: true } })),
    messages: await prisma.assistantMessage.count({ where: { conversation_id: s.conversations.old } }),
    reports: await ids(prisma.report.findMany({ where: { report_key: { startsWith: tag } }, select: { id: true } })),
    files: { old: await stored(s.reports.oldKey), recent: await stored(s.reports.recentKey) },
    business: {
      order: await prisma.order.count({ where: { id: s.business.order } }),
      linkage: await prisma.disputeLinkage.count({ where: { id: s.business.linkage } }),
      chargeback: await prisma.chargeback.count({ where: { id: s.business.chargeback } }),
    },
  };
}

describe("retention", () => {
  it("deletes what is past its time in batches of RETENTION_BATCH_SIZE, keeps recent rows, owed rows and business records, and a second run deletes nothing more", async () => {
    const s = await seed();
    for (const name of RETENTION_JOBS) await run(name);

    const expected = {
      webhooks: sorted([s.webhooks.oldUnprocessed, s.webhooks.recent]),
      runs: sorted([s.runs.latestOld, s.runs.oldRunning, s.runs.recent]),
      syncErrors: [s.syncErrors.recent],
      snapshots: sorted([s.snapshots.newest, s.snapshots.alone]),
      history: sorted([s.history.oldAlert, s.history.recent]),
      notifications: [s.notifications.recent],
      alerts: sorted(s.alerts.kept),
      changes: [s.changes.recent],
      audit: [s.audit.recent],
      conversations: [s.conversations.recent],
      messages: 0,
      reports: [s.reports.recent],
      files: { old: false, recent: true },
      business: { order: 1, linkage: 1, chargeback: 1 },
    };
    expect(await remaining(s)).toEqual(expected);
    // Five old deliveries at two a statement: at least three statements (the database may hold other files' old rows too).
    expect(batchesOf("webhook_events")).toBeGreaterThanOrEqual(3);
    expect(batchesOf("ai_snapshots")).toBeGreaterThanOrEqual(2);

    // Idempotent: again, nothing of this file's changes, and each job completes.
    for (const name of RETENTION_JOBS) await run(name);
    expect(await remaining(s)).toEqual(expected);
  });

  it("keeps item history RETENTION_ITEM_HISTORY_DAYS", async () => {
    const { siteId } = await createSiteWithKey(prisma, { name: `History ${tag}` });
    await prisma.itemHistory.createMany({ data: [5, 4, 2].map((days) => ({ site_id: siteId, sku: `D${days}`, erp_stock: 1, pushed_stock: 1, synced_at: daysAgo(days) })) });
    await run("item-history-cleanup");
    expect((await prisma.itemHistory.findMany({ where: { site_id: siteId }, select: { sku: true } })).map((row) => row.sku)).toEqual(["D2"]);
  });
});

describe("log file retention", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "log-retention-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("removes files last written more than the given days ago, keeps the others, and a second sweep removes nothing", async () => {
    const file = async (name: string, days: number) => {
      await writeFile(path.join(dir, name), "{}\n");
      await utimes(path.join(dir, name), daysAgo(days), daysAgo(days));
    };
    await file("orders-2026-10-01.host-1.log", 20);
    await file("orders-2026-10-01.host-1.log.1", 15);
    await file("orders-2026-11-20.host-1.log", 9);
    await file("orders-2026-11-28.host-2.log", 0);
    expect(await removeExpiredLogFiles(dir, 14)).toEqual(["orders-2026-10-01.host-1.log", "orders-2026-10-01.host-1.log.1"]);
    expect((await readdir(dir)).sort()).toEqual(["orders-2026-11-20.host-1.log", "orders-2026-11-28.host-2.log"]);
    expect(await removeExpiredLogFiles(dir, 14)).toEqual([]);
  });
});
