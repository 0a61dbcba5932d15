// The world a dispute bench runs in: one merchant on the fake gateway, one
// site on the fake fraud service, `sales` gateway transactions with their
// orders; then backlogs of dispute webhooks queued against them.
import { randomBytes } from "node:crypto";
import { createMerchant, disputeJobId } from "@mw/domains/disputes";
import type { PrismaClient } from "@mw/platform";
import type { Queue } from "bullmq";
import { disputePayload } from "../../scripts/chaos/traffic.ts";
import { seedFraudSite, seedSales, seedWebhookEvents } from "../../scripts/support/seed.ts";
import type { FakeGateway } from "../../test/fakes/gateway.ts";

const MID = "4242";
const DAY_MS = 86_400_000;
const FIRST_DAY = Date.parse("2026-01-01T00:00:00Z");

export interface DisputeWorld {
  /** The fraud service's API key of the bench's site (FakeFraud needs it). */
  fraudKey: string;
  /** How many sales disputes can point at. */
  sales: number;
}

/** Sale i's time: `perDay` sales a day, one a minute, so a ±2-day gateway query answers about 5 x perDay transactions. */
function saleDay(i: number, perDay: number): Date {
  return new Date(FIRST_DAY + Math.floor(i / perDay) * DAY_MS + (i % perDay) * 60_000);
}

export async function seedDisputeWorld(prisma: PrismaClient, key: Buffer, gateway: FakeGateway, fraudKey: string, options: { sales: number; perDay: number }): Promise<DisputeWorld> {
  const gatewayKey = randomBytes(16).toString("hex");
  await createMerchant({ prisma }, key, { mid: MID, security_key: gatewayKey });
  const site = await seedFraudSite(prisma, key, { name: "Bench shop", site_url: "https://bench.example", fraud_team_id: "bench-team", fraudKey });
  for (let i = 0; i < options.sales; i += 1) {
    gateway.addTransaction(gatewayKey, { transaction_id: String(1_000_000 + i), authorization_code: `A${i}`, date: saleDay(i, options.perDay), order_id: `B-${i}` });
  }
  await seedSales(
    prisma,
    site.id,
    Array.from({ length: options.sales }, (_, i) => ({ number: `B-${i}`, dateadded: saleDay(i, options.perDay), payload_hash: "b".repeat(64) })),
  );
  return { fraudKey, sales: options.sales };
}

/** The acquirer's webhook for case `caseId`, disputing sale `n` (modulo the world's sales): one the pipeline links. */
export function disputeWebhookBody(world: DisputeWorld & { perDay: number }, caseId: string, n: number): string {
  const sale = n % world.sales;
  return disputePayload(caseId, MID, `A${sale}`, saleDay(sale, world.perDay).toISOString().slice(0, 10));
}

/**
 * Stores `count` dispute webhooks (already marked queued, so the inbox sweep
 * leaves them alone) for cases `<tag>-<i>` and adds their jobs, one attempt
 * each, as the receiver would. Answers the jobs' ids.
 */
export async function queueDisputeBacklog(prisma: PrismaClient, queue: Queue, world: DisputeWorld & { perDay: number }, tag: string, count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, n) => {
    const caseId = `${tag}-${n}`;
    return { source: "acquirer", event_type: "dispute.created", event_id: `acquirer_case_${caseId}`, payload: disputeWebhookBody(world, caseId, n), payload_hash: "0".repeat(64) };
  });
  await seedWebhookEvents(prisma, rows);
  const stored = await prisma.webhookEvent.findMany({ where: { event_id: { startsWith: `acquirer_case_${tag}-` } }, select: { id: true, event_id: true } });
  const jobs = await queue.addBulk(stored.map((row) => ({ name: "process-dispute", data: { webhook_id: row.id }, opts: { jobId: disputeJobId(row), attempts: 1 } })));
  return jobs.map((job) => job.id!);
}
