/** `YYYY-MM-DD HH:MM:SS` in UTC, the spec's datetime format (sites list, stats, image API). */
export function formatDateTime(date: Date | null | undefined): string | null {
  return date ? date.toISOString().slice(0, 19).replace("T", " ") : null;
}

/** Midnight UTC of the day `now` falls in. */
export function startOfUtcDay(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Rejects when `promise` has not settled within `ms` (for calls whose client has no timeout of its own). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref()),
  ]);
}
