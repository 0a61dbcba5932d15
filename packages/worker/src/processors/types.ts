import type { Services } from "@mw/shared";
import type { Job } from "bullmq";
import type { Logger } from "@mw/shared";

export interface JobContext extends Services {
  /** Logger carrying the job id (and queue), for every line the processor writes. */
  log: Logger;
}

/** Processes one job whose payload has already been parsed against its schema. */
export type Processor = (job: Job, payload: never, ctx: JobContext) => Promise<unknown>;
