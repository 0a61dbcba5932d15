import type { RedisClient } from "../redis/redis.ts";
import { LuaScript } from "../redis/lua-script.ts";

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

/**
 * One attempt's increments in one command (a pipeline of a dozen HINCRBYs
 * cost a short job's worker several per cent of its CPU). KEYS: the hash;
 * ARGV: `<queue>|<outcome>`, seconds, then the buckets the duration falls in.
 */
const RECORD = new LuaScript(`for i = 3, #ARGV do redis.call("HINCRBY", KEYS[1], ARGV[1] .. "|" .. ARGV[i], 1) end
redis.call("HINCRBYFLOAT", KEYS[1], ARGV[1] .. "|sum", ARGV[2])
return 0`, 1);

export async function recordJobDuration(
  redis: RedisClient,
  prefix: string,
  queue: string,
  outcome: JobOutcome,
  seconds: number,
): Promise<void> {
  const buckets = [...JOB_DURATION_BUCKETS.filter((le) => seconds <= le).map(String), "+Inf"];
  await RECORD.run(redis, hashKey(prefix), `${queue}|${outcome}`, String(seconds), ...buckets);
}

/** The stored histograms as Prometheus exposition text. */
export async function renderJobDurations(redis: RedisClient, prefix: string): Promise<string> {
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
