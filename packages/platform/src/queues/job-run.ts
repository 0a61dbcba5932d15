import type { Logger } from "../logging/logger.ts";

/**
 * What a running job hands the domain use case it calls: its logger (the job
 * id on every line), its progress (shown in Bull Board) and a way to put
 * itself back for later. A use case takes the members it uses (`Pick`), so
 * domains run as jobs without knowing the worker.
 */
export interface JobRun {
  log: Logger;
  /** How far a long job has got; cheap to call in a loop. */
  progress(done: number, total: number, note?: string): Promise<void>;
  /** Puts the job back as delayed for `ms` and ends this run (it throws): it runs again later with the same id and attempts. */
  delay(ms: number, reason: string): Promise<never>;
}
