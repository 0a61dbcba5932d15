/** `YYYY-MM-DD HH:MM:SS` in UTC, the spec's datetime format (sites list, stats, image API). */
export function formatDateTime(date: Date | null | undefined): string | null {
  return date ? date.toISOString().slice(0, 19).replace("T", " ") : null;
}

/** Midnight UTC of the day `now` falls in. */
export function startOfUtcDay(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
