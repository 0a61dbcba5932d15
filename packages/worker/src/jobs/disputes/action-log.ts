import type { Logger } from "@mw/shared";

export interface LogEntry {
  at: string;
  step: string;
  message: string;
}

/** The chargeback's action log (spec 1, 2.5), every entry also logged with the job and case ids. */
export class ActionLog {
  readonly entries: LogEntry[] = [];

  constructor(private readonly log: Logger) {}

  info(step: string, message: string, meta: Record<string, unknown> = {}): void {
    this.record("info", step, message, meta);
  }

  error(step: string, message: string, meta: Record<string, unknown> = {}): void {
    this.record("error", step, message, meta);
  }

  private record(level: "info" | "error", step: string, message: string, meta: Record<string, unknown>): void {
    this.entries.push({ at: new Date().toISOString(), step, message });
    this.log.log(level, message, { step, ...meta });
  }
}
