const DAY_MS = 86_400_000;

/** Whole days from now until `at` (negative once it has passed); null when there is no date. */
export function daysLeft(at: Date | null, now = Date.now()): number | null {
  return at ? Math.floor((at.getTime() - now) / DAY_MS) : null;
}

/** The moment `days` days from `now`: what "expires within N days" compares with. */
export function daysFromNow(days: number, now = Date.now()): Date {
  return new Date(now + days * DAY_MS);
}
