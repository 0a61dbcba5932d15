import { z } from "zod";

/** `YYYY-MM-DD HH:MM:SS` in UTC, the spec's datetime format (sites list, stats, image API). */
export function formatDateTime(date: Date | null | undefined): string | null {
  return date ? date.toISOString().slice(0, 19).replace("T", " ") : null;
}

/** Midnight UTC of the day `now` falls in. */
export function startOfUtcDay(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Rejects when `promise` has not settled within `ms` (for calls whose client has no timeout of its own).
 * The timer is cleared once the promise settles: on a hot path (every job add) a timer left to fire
 * would hold its closure for `ms` and build an Error with a stack trace per call for nothing.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref();
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
/** `YYYY-MM-DD` of the UTC day `date` falls in. */
export function formatDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Midnight UTC of a `YYYY-MM-DD` day. */
export function utcDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** A calendar day `YYYY-MM-DD` that exists (no 2026-02-30). */
export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD")
  .refine((day) => !Number.isNaN(utcDay(day).getTime()) && formatDay(utcDay(day)) === day, "is not a real date");
