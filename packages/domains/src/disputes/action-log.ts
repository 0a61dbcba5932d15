import type { ActionLogEntry } from "./chargeback.ts";

/**
 * The chargeback's action log (spec 1, 2.5) and the attempt's step log (spec
 * 1, 4.6: each step at INFO, errors at ERROR). The steps are not a log line
 * each: they go, with their times and details, into the one line that ends
 * the attempt (`steps`), which costs a fifth of nine lines through every
 * transport (docs/decisions.md, "Dispute pipeline throughput").
 */
export class ActionLog {
  readonly entries: ActionLogEntry[] = [];
  /** Each entry with its details, and `level: "error"` on a failed step, for the attempt's log line. */
  readonly steps: Record<string, unknown>[] = [];

  info(step: string, message: string, meta: Record<string, unknown> = {}): void {
    this.record("info", step, message, meta);
  }

  error(step: string, message: string, meta: Record<string, unknown> = {}): void {
    this.record("error", step, message, meta);
  }

  private record(level: "info" | "error", step: string, message: string, meta: Record<string, unknown>): void {
    const entry = { at: new Date().toISOString(), step, message };
    this.entries.push(entry);
    this.steps.push({ ...entry, ...(level === "error" && { level }), ...meta });
  }
}
