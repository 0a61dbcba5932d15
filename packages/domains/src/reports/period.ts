import { z } from "zod";
import { isoDay, utcDay } from "@mw/platform/core";

export const REPORT_TYPES = ["order-intake-daily", "dispute-outcomes", "inventory-sync-summary", "dashboard-summary"] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
/** The reports of a past day that the daily job queues; the dashboard summary is a snapshot, asked for when wanted. */
export const DAILY_REPORT_TYPES = REPORT_TYPES.filter((type) => type !== "dashboard-summary");

/** Longest period one report covers. */
const MAX_REPORT_DAYS = 366;
const DAY_MS = 86_400_000;

/** Whole UTC days, both ends included. */
export interface ReportPeriod {
  from: string;
  to: string;
}

/** What POST /reports takes: a type and one `date`, or `from` and `to`. */
export const reportRequest = z
  .object({
    type: z.enum(REPORT_TYPES),
    date: isoDay.optional(),
    from: isoDay.optional(),
    to: isoDay.optional(),
  })
  .superRefine((input, ctx) => {
    const range = input.from !== undefined || input.to !== undefined;
    if (input.date !== undefined && range) ctx.addIssue({ code: "custom", path: ["date"], message: "give date, or from and to, not both" });
    else if (input.date === undefined && (input.from === undefined || input.to === undefined)) {
      ctx.addIssue({ code: "custom", path: [input.from === undefined ? "from" : "to"], message: "give date, or from and to" });
    } else if (range && input.from! > input.to!) ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
    else if (range && (utcDay(input.to!).getTime() - utcDay(input.from!).getTime()) / DAY_MS + 1 > MAX_REPORT_DAYS) {
      ctx.addIssue({ code: "custom", path: ["to"], message: `a report covers at most ${MAX_REPORT_DAYS} days` });
    }
  })
  .transform((input) => ({ type: input.type, period: { from: input.date ?? input.from!, to: input.date ?? input.to! } }));

export const reportPeriod = z.object({ from: isoDay, to: isoDay });

/** `<type>:<from>` for one day, `<type>:<from>..<to>` for several: one report row per type and period. */
export function reportKey(type: ReportType, period: ReportPeriod): string {
  return `${type}:${period.from === period.to ? period.from : `${period.from}..${period.to}`}`;
}

/** Where the CSV lives in storage; a rerun overwrites the same object. */
export function reportStorageKey(type: ReportType, period: ReportPeriod): string {
  return `reports/${type}/${reportFileName(type, period)}`;
}

export function reportFileName(type: ReportType, period: ReportPeriod): string {
  return `${type}_${period.from === period.to ? period.from : `${period.from}_${period.to}`}.csv`;
}

/** `[start, end)` instants of a period, for `>= start AND < end` comparisons. */
export function periodBounds(period: ReportPeriod): { start: Date; end: Date } {
  return { start: utcDay(period.from), end: new Date(utcDay(period.to).getTime() + DAY_MS) };
}
