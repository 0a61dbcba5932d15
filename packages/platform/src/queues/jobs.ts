import type { JobsOptions } from "bullmq";
import { z } from "zod";
import type { Config } from "../config/config.ts";
import type { QueueName } from "../config/queue-names.ts";

/** The settings that hold a periodic job's cron pattern, so a deployment may change when it runs. */
export type ScheduleSetting = "TIME_SYNC_SCHEDULE" | "MILESTONES_SCHEDULE" | "KNOWLEDGE_REFRESH_SCHEDULE" | "RETENTION_SCHEDULE";

/** How often a periodic job runs: every so many ms, or on a cron pattern (UTC), fixed or read from a setting. */
export type JobSchedule = { every: number } | { pattern: string } | { setting: ScheduleSetting };

/** The BullMQ repeat options of a schedule; a setting's pattern comes from the config (its default, or the deployment's). */
export function repeatOf(schedule: JobSchedule, config: Pick<Config, ScheduleSetting>): { every: number } | { pattern: string; tz: "UTC" } {
  if ("every" in schedule) return { every: schedule.every };
  return { pattern: "pattern" in schedule ? schedule.pattern : config[schedule.setting], tz: "UTC" };
}

/**
 * One kind of job, declared by its domain in `<domain>/jobs.ts`: the queue it
 * runs on, its name (unique in that queue), the schema its payload must pass
 * (producers validate before adding, processors parse before working), any
 * options beside the queue's defaults, and, for a periodic job, its schedule.
 */
export interface JobDefinition<Schema extends z.ZodType = z.ZodType> {
  readonly queue: QueueName;
  readonly name: string;
  readonly payload: Schema;
  readonly options?: JobsOptions;
  /** A BullMQ job scheduler named after the job, upserted by every worker that serves its queue. */
  readonly schedule?: JobSchedule;
}

export type PayloadOf<J extends JobDefinition> = z.output<J["payload"]>;

export function defineJob<Schema extends z.ZodType>(definition: JobDefinition<Schema>): JobDefinition<Schema> {
  return definition;
}

/**
 * What a worker accepts as a stored job's data: the definition's schema,
 * refusing keys it does not declare. Producers store the parsed payload
 * (unknown keys stripped), so a key the schema does not know means something
 * other than a producer wrote the job: it fails rather than runs.
 */
export function storedPayloadSchema(definition: JobDefinition): z.ZodType {
  const { payload } = definition;
  return payload instanceof z.ZodObject ? payload.strict() : payload;
}

/** BullMQ refuses ':' in custom job ids; ours are human keys like `order-export.42`, built only by each job's own id builder. */
export function jobId(...parts: (string | number)[]): string {
  return parts.map((part) => String(part).replace(/:/g, "_")).join(".");
}

/**
 * Every job of the platform, merged from the domains' declarations. A name
 * declared twice in one queue is a programming error caught at start-up,
 * not a job silently handled by the wrong code.
 */
export class JobCatalog<Entry extends { job: JobDefinition }> {
  private readonly byKey = new Map<string, Entry>();

  constructor(entries: readonly Entry[]) {
    for (const entry of entries) {
      const key = `${entry.job.queue}/${entry.job.name}`;
      if (this.byKey.has(key)) throw new Error(`job ${key} is declared twice`);
      this.byKey.set(key, entry);
    }
  }

  find(queue: string, name: string): Entry | undefined {
    return this.byKey.get(`${queue}/${name}`);
  }

  entries(): Entry[] {
    return [...this.byKey.values()];
  }
}
