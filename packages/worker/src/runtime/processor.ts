import type { Logger, Connections } from "@mw/shared";
import type { Job } from "bullmq";

export interface JobContext extends Connections {
  /** Logger carrying the job id (and queue), for every line the processor writes. */
  log: Logger;
  /** Reports how far a long job has got (shown in Bull Board); cheap to call in a loop. */
  progress(done: number, total: number, note?: string): Promise<void>;
}

/** Processes one job whose payload has already been parsed against its schema. */
export type Processor = (job: Job, payload: never, ctx: JobContext) => Promise<unknown>;
