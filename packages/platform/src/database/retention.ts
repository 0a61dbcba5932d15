import type { Logger } from "../logging/logger.ts";

const DAY_MS = 86_400_000;

/** The moment before which a record kept `days` days is due. */
export function retentionCutoff(days: number, now = Date.now()): Date {
  return new Date(now - days * DAY_MS);
}

/** How often a long purge says how far it has got (every this many batches), besides its total at the end. */
const PROGRESS_EVERY = 10;

/**
 * Deletes due rows one batch at a time until a batch comes back short: `deleteBatch(limit)` deletes at most
 * `limit` rows in one statement and answers how many it did. Each statement commits on its own, so a purge of
 * millions of rows never holds locks for more than one batch's time and other writers go between batches.
 * Logs its progress on long runs and its total; answers the rows deleted.
 */
export async function deleteInBatches(
  what: string,
  deps: { batchSize: number; log: Pick<Logger, "info"> },
  cutoff: Date,
  deleteBatch: (limit: number) => Promise<number>,
): Promise<number> {
  const limit = deps.batchSize;
  let deleted = 0;
  let batches = 0;
  for (;;) {
    const count = await deleteBatch(limit);
    deleted += count;
    batches += 1;
    if (count < limit) break;
    if (batches % PROGRESS_EVERY === 0) deps.log.info(`retention: deleting ${what}`, { table: what, deleted, batches, cutoff: cutoff.toISOString() });
  }
  deps.log.info(`retention: ${what} purged`, { table: what, deleted, batches, cutoff: cutoff.toISOString() });
  return deleted;
}
