import type { PrismaClient } from "./db.ts";
import { truncateCodePoints } from "./text.ts";

/**
 * Workers record failures operators must see (GET /stats `errors`) here, on
 * top of the job's own failed state in Bull Board. Messages are cut to what
 * a person reads; the full error stays in the log.
 */
export async function recordSyncError(
  prisma: PrismaClient,
  entry: { source: string; message: string; order_number?: string | null; site_id?: number | null },
): Promise<void> {
  await prisma.syncError.create({
    data: {
      source: truncateCodePoints(entry.source, 32),
      message: truncateCodePoints(entry.message, 2000),
      order_number: entry.order_number ? truncateCodePoints(entry.order_number, 20) : null,
      site_id: entry.site_id ?? null,
    },
  });
}
