import { createRedis, Queues, type PrismaClient } from "@mw/platform";
import { disputeJobId } from "@mw/domains/disputes";
import { orderExportJobId } from "@mw/domains/orders";

/** The deliveries the platform acknowledged as stored and queued: disputes answered 202, orders answered 201 or 200. */
export interface Acknowledged {
  caseIds: string[];
  orders: string[];
}

/**
 * How many acknowledged deliveries have neither been processed nor a job in
 * Redis: the failover dropped their job after the platform had answered. The
 * inbox sweeps would queue them again later (disputes after 30 s, orders
 * after a minute), which is why this is counted before they run.
 */
export async function droppedJobs(prisma: PrismaClient, redisUrl: string, prefix: string, siteId: number, acknowledged: Acknowledged): Promise<number> {
  const redis = createRedis(redisUrl, { name: "mw-chaos-dropped" });
  const queues = new Queues(redis, prefix);
  try {
    const rows = await prisma.webhookEvent.findMany({
      where: { event_id: { in: acknowledged.caseIds.map((id) => `acquirer_case_${id}`) }, processed_at: null },
      select: { id: true, event_id: true },
    });
    const orders = await prisma.order.findMany({ where: { site_id: siteId, number: { in: acknowledged.orders }, imported: 0 }, select: { id: true } });
    const missing = await Promise.all([
      ...rows.map(async (row) => !(await queues.get("disputes").getJob(disputeJobId(row)))),
      ...orders.map(async (order) => !(await queues.get("orders").getJob(orderExportJobId(order.id)))),
    ]);
    return missing.filter(Boolean).length;
  } finally {
    await queues.close();
    await redis.quit().catch(() => redis.disconnect());
  }
}
