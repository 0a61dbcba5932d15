import type { Job } from "bullmq";
import Transport from "winston-transport";
import type { Logger } from "../logger.ts";

/** Fields every line of a job carries already: the Logs tab is the job's own page. */
const OMITTED = new Set(["level", "message", "timestamp", "service", "queue", "job_id", "job_name", "attempt"]);

function line(info: Record<string, unknown>): string {
  const time = typeof info.timestamp === "string" ? info.timestamp.slice(11, 19) : "";
  const fields = Object.entries(info)
    .filter(([key]) => !OMITTED.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  return [time, String(info.level).toUpperCase(), String(info.message), ...fields].filter(Boolean).join(" ");
}

/**
 * Copies every log line a job's processor writes (info and above) into the
 * job's own log, so Bull Board's Logs tab tells the story of each attempt.
 * The processors only log; lines are matched to the running job by the
 * `queue` and `job_id` fields of its child logger. Written after redaction.
 */
class JobLogTransport extends Transport {
  private readonly running = new Map<string, Job>();

  constructor() {
    super({ level: "info" });
  }

  follow(job: Job): () => void {
    const key = `${job.queueName}\u0000${job.id}`;
    this.running.set(key, job);
    return () => this.running.delete(key);
  }

  override log(info: Record<string, unknown>, next: () => void): void {
    const job = this.running.get(`${String(info.queue)}\u0000${String(info.job_id)}`);
    // Best effort: a job log that cannot be written must not fail the job.
    if (job) job.log(line(info)).catch(() => {});
    next();
  }
}

const transports = new WeakMap<Logger, JobLogTransport>();

/** Starts copying the job's log lines into its BullMQ log; call the answer when the job is done. */
export function followJobLog(logger: Logger, job: Job): () => void {
  let transport = transports.get(logger);
  if (!transport) {
    transport = new JobLogTransport();
    logger.add(transport);
    transports.set(logger, transport);
  }
  return transport.follow(job);
}
