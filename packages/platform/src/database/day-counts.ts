const DAY_MS = 86_400_000;

/** A time range `[from, before)`; an absent end leaves that side open. */
export interface TimeRange {
  from?: Date;
  before?: Date;
}

/** Whole UTC days as a range of a DATE column: `gte` and `lt` are midnights, an absent one open. */
export interface DayRange {
  gte?: Date;
  lt?: Date;
}

/** A piece of a time range shorter than two days, as a range of a date column. */
export interface TimePart {
  gte: Date;
  lt: Date;
}

/**
 * A time range split into the whole UTC days inside it (null: none) and the pieces of days at its ends
 * (at most two, each under two days): what counts kept per day can answer, and what is left to count
 * from the rows, a short range of their date index.
 */
export function splitByUtcDay({ from, before }: TimeRange): { days: DayRange | null; parts: TimePart[] } {
  const low = from?.getTime();
  const high = before?.getTime();
  if (low !== undefined && high !== undefined && low >= high) return { days: null, parts: [] };
  const firstDay = low === undefined ? undefined : Math.ceil(low / DAY_MS) * DAY_MS;
  const endDay = high === undefined ? undefined : Math.floor(high / DAY_MS) * DAY_MS;
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) return { days: null, parts: [{ gte: from!, lt: before! }] };
  const parts: TimePart[] = [];
  if (low !== undefined && low < firstDay!) parts.push({ gte: from!, lt: new Date(firstDay!) });
  if (high !== undefined && endDay! < high) parts.push({ gte: new Date(endDay!), lt: before! });
  return { days: { gte: firstDay === undefined ? undefined : new Date(firstDay), lt: endDay === undefined ? undefined : new Date(endDay) }, parts };
}

/**
 * How many rows a time range holds: the kept per-day counts summed over its whole days (`sumDays`, a few
 * rows of a count table per day) plus the rows of the pieces of days at its ends counted (`countPart`).
 */
export async function totalByDay(
  range: TimeRange,
  sumDays: (days: DayRange) => Promise<bigint | number | null>,
  countPart: (part: TimePart) => Promise<number>,
): Promise<number> {
  const { days, parts } = splitByUtcDay(range);
  const totals = await Promise.all([days ? sumDays(days) : 0, ...parts.map(countPart)]);
  return totals.reduce<number>((sum, n) => sum + Number(n ?? 0), 0);
}
