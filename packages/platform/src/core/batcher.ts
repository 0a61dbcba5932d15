export interface BatchItem<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export interface GroupOptions {
  /** Batches written at once; items arriving while all are busy wait for the next one. */
  concurrency: number;
  /** Most items in one batch. */
  maxBatch: number;
}

/**
 * Gathers concurrent calls into batches: an item that arrives while
 * `concurrency` batches are being written waits and goes with the others that
 * arrived meanwhile. `write` settles every item of its batch.
 */
export class Batcher<T, R> {
  private queued: BatchItem<T, R>[] = [];
  private writing = 0;

  constructor(
    private readonly options: GroupOptions,
    private readonly write: (batch: BatchItem<T, R>[]) => Promise<void>,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queued.push({ item, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.writing < this.options.concurrency && this.queued.length > 0) {
      const batch = this.queued.splice(0, this.options.maxBatch);
      this.writing += 1;
      void this.write(batch)
        .catch((error: unknown) => batch.forEach((pending) => pending.reject(error)))
        .finally(() => {
          this.writing -= 1;
          this.drain();
        });
    }
  }
}
