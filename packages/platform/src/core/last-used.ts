const TOUCH_INTERVAL_MS = 60_000;

/**
 * Records that a key was used. Last use is bookkeeping: at most one write a
 * minute per key, never awaited by the request it rides on.
 */
export function touchLastUsed(lastUsedAt: Date | null, write: () => Promise<unknown>): void {
  if (lastUsedAt && lastUsedAt.getTime() >= Date.now() - TOUCH_INTERVAL_MS) return;
  void write().catch(() => {});
}
