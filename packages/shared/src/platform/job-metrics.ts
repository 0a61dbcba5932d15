import type { Redis } from "ioredis";

/**
 * Job durations are observed in worker processes but served by the API's
 * /metrics, so they are kept as cumulative histogram counters in one Redis
 * hash that every worker increments and the API reads on scrape.
 */
export const JOB_DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

export type JobOutcome = "completed" | "failed";

function hashKey(prefix: string): string {
  return `${prefix}:metrics:job_duration`;
}

export async function recordJobDuration(
  redis: Redis,
  prefix: string,
  queue: string,
  outcome: JobOutcome,
  seconds: number,
): Promise<void> {
  const key = hashKey(prefix);
  const pipeline = redis.pipeline();
  for (const le of JOB_DURATION_BUCKETS) {
    if (seconds <= le) pipeline.hincrby(key, `${queue}|${outcome}|${le}`, 1);
  }
  pipeline.hincrby(key, `${queue}|${outcome}|+Inf`, 1);
  pipeline.hincrbyfloat(key, `${queue}|${outcome}|sum`, seconds);
  await pipeline.exec();
}

/** The stored histograms as Prometheus exposition text. */
export async function renderJobDurations(redis: Redis, prefix: string): Promise<string> {
  const fields = await redis.hgetall(hashKey(prefix));
  const series = new Map<string, Map<string, number>>();
  for (const [field, value] of Object.entries(fields)) {
    const [queue, outcome, le] = field.split("|");
    if (!queue || !outcome || !le) continue;
    const id = `${queue}|${outcome}`;
    if (!series.has(id)) series.set(id, new Map());
    series.get(id)!.set(le, Number(value));
  }
  const lines = [
    "# HELP mw_job_duration_seconds Time a worker spent on a job attempt, by queue and outcome of the attempt.",
    "# TYPE mw_job_duration_seconds histogram",
  ];
  for (const [id, values] of [...series.entries()].sort()) {
    const [queue, outcome] = id.split("|");
    const labels = `queue="${queue}",state="${outcome}"`;
    for (const le of JOB_DURATION_BUCKETS) {
      lines.push(`mw_job_duration_seconds_bucket{${labels},le="${le}"} ${values.get(String(le)) ?? 0}`);
    }
    const count = values.get("+Inf") ?? 0;
    lines.push(`mw_job_duration_seconds_bucket{${labels},le="+Inf"} ${count}`);
    lines.push(`mw_job_duration_seconds_sum{${labels}} ${values.get("sum") ?? 0}`);
    lines.push(`mw_job_duration_seconds_count{${labels}} ${count}`);
  }
  return `${lines.join("\n")}\n`;
}
