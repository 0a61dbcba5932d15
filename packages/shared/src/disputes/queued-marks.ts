import type { SqlPool } from "../db.ts";

/**
 * Sets `queued_at` on webhook rows in batches: one UPDATE per flush instead of
 * one per delivery, off the request path. A mark lost to a crash only means
 * the sweeper re-adds the row's job under the same id, which BullMQ ignores.
 */
export class QueuedMarks {
  private pending: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: SqlPool,
    private readonly onError: (error: unknown) => void,
    private readonly delayMs = 200,
    private readonly maxBatch = 500,
  ) {}

  add(id: number): void {
    this.pending.push(id);
    if (this.pending.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Writes what is pending; awaited at shutdown so no mark is dropped on a clean stop. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ids = this.pending;
    this.pending = [];
    if (ids.length) {
      this.flushing = this.flushing.then(() =>
        this.sql
          .query(`UPDATE webhook_events SET queued_at = NOW(3) WHERE queued_at IS NULL AND id IN (${ids.map(() => "?").join(", ")})`, ids)
          .then(() => undefined, this.onError),
      );
    }
    await this.flushing;
  }
}
