import { storedPayloadSchema, type Connections, type JobCatalog, type JobDefinition, type JobRun, type PayloadOf, type PrismaClient, type Queues } from "@mw/platform";
import type { Job } from "bullmq";
import type { z } from "zod";

/** Everything a handler may hand on: the process's connections and this run's log, progress and delay. */
export interface JobContext extends Connections, JobRun {}

/** Processes one job whose payload has already been parsed against its definition's schema. */
export type Processor<J extends JobDefinition = JobDefinition> = (job: Job, payload: PayloadOf<J>, ctx: JobContext) => Promise<unknown>;

/**
 * Brings a job's schedulers in line with the database (per-site schedulers
 * follow the sites table); idempotent, run by every worker that serves the
 * job's queue when it starts.
 */
export type ScheduleReconciler = (prisma: PrismaClient, queues: Queues) => Promise<Record<string, number>>;

/** A job definition and the code that processes it: one entry of the worker's catalog. */
export interface JobHandler {
  job: JobDefinition;
  /** The stored data a run accepts (storedPayloadSchema): anything else fails the job before `process` sees it. */
  accepts: z.ZodType;
  process: Processor;
  reconcileSchedules?: ScheduleReconciler;
}

/** Every job a worker knows (jobs/index.ts merges the domains'); main.ts hands it to the runtime. */
export type WorkerCatalog = JobCatalog<JobHandler>;

export function handle<J extends JobDefinition>(job: J, process: Processor<J>, options: { reconcileSchedules?: ScheduleReconciler } = {}): JobHandler {
  return { job, accepts: storedPayloadSchema(job), process: process as Processor, ...options };
}
