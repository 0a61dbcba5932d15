import type { Job } from "bullmq";
import Transport from "winston-transport";
import type { Logger } from "../logging/logger.ts";
import { LuaScript } from "../redis/lua-script.ts";
import type { QueueName } from "../config/queue-names.ts";
import type { Queues } from "./queues.ts";

/** Fields every line of a job carries already: the Logs tab is the job's own page. */
const OMITTED = new Set(["level", "message", "timestamp", "service", "queue", "job_id", "job_name", "attempt"]);

/** A long job's lines reach its log at least this often; a short one's all at once when it ends. */
const FLUSH_AFTER_MS = 1000;
/** Rows per Redis call, well under what one Lua call may unpack. */
const MAX_ROWS = 500;

/**
 * BullMQ's addLog for several rows in one call: appended only while the job
 * exists (a removed job gets no orphan log key), then trimmed to keepLogs.
 * KEYS: job hash, job logs; ARGV: keepLogs ('' for all), rows...
 * test/platform/job-logs.test.ts fails when BullMQ moves or reshapes these keys.
 */
const ADD_LOG_ROWS = new LuaScript(
  `if redis.call("EXISTS", KEYS[1]) == 1 then
  redis.call("RPUSH", KEYS[2], unpack(ARGV, 2))
  if ARGV[1] ~= "" then redis.call("LTRIM", KEYS[2], -tonumber(ARGV[1]), -1) end
end
return 0`,
  2,
);

function row(info: Record<string, unknown>): string {
  const time = typeof info.timestamp === "string" ? info.timestamp.slice(11, 19) : "";
  const fields = Object.entries(info)
    .filter(([key]) => !OMITTED.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  return [time, String(info.level).toUpperCase(), String(info.message), ...fields].filter(Boolean).join(" ");
}

/**
 * A log line's rows in the Logs tab. A line may carry `steps`, the job's
 * earlier moments logged together (each `{at, message, level?, ...fields}`,
 * INFO unless it says): each is a row of its own, before the line's.
 */
function rows(info: Record<string, unknown>): string[] {
  const { steps, ...line } = info;
  if (!Array.isArray(steps)) return [row(info)];
  const earlier = (steps as Record<string, unknown>[]).map(({ at, ...step }) => row({ level: "info", ...step, timestamp: at }));
  return [...earlier, row(line)];
}

/**
 * The rows of one running job not yet in Redis. Each row used to be its own
 * Redis call (a script run per log line, a tenth of a short job's CPU); now a
 * job's rows go in one call when it ends, or every FLUSH_AFTER_MS while it runs.
 */
class PendingRows {
  private rows: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private written: Promise<void> = Promise.resolve();

  constructor(
    private readonly job: Job,
    private readonly queues: Queues,
  ) {}

  add(row: string): void {
    this.rows.push(row);
    if (this.rows.length >= MAX_ROWS) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_AFTER_MS).unref();
  }

  /** Sends what is pending; calls follow each other on one connection, so rows keep their order. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.rows.length > 0) {
      const rows = this.rows;
      this.rows = [];
      const key = this.queues.get(this.job.queueName as QueueName).toKey(this.job.id!);
      const keepLogs = this.job.opts.keepLogs === undefined ? "" : String(this.job.opts.keepLogs);
      // Best effort: a job log that cannot be written must not fail the job.
      this.written = ADD_LOG_ROWS.run(this.queues.connection, key, `${key}:logs`, keepLogs, ...rows).then(
        () => {},
        () => {},
      );
    }
    return this.written;
  }
}

/**
 * Copies every log line a job's processor writes (info and above) into the
 * job's own log, so Bull Board's Logs tab tells the story of each attempt.
 * The processors only log; lines are matched to the running job by the
 * `queue` and `job_id` fields of its child logger. Written after redaction.
 */
class JobLogTransport extends Transport {
  private readonly running = new Map<string, PendingRows>();

  constructor() {
    super({ level: "info" });
  }

  follow(job: Job, queues: Queues): () => Promise<void> {
    const key = `${job.queueName}\u0000${job.id}`;
    const pending = new PendingRows(job, queues);
    this.running.set(key, pending);
    return () => {
      this.running.delete(key);
      return pending.flush();
    };
  }

  override log(info: Record<string, unknown>, next: () => void): void {
    const pending = this.running.get(`${String(info.queue)}\u0000${String(info.job_id)}`);
    if (pending) for (const text of rows(info)) pending.add(text);
    next();
  }
}

const transports = new WeakMap<Logger, JobLogTransport>();

/**
 * Starts copying the job's log lines into its BullMQ log (written through the
 * queues' connection); call the answer when the job is done: it writes what is
 * left and resolves once that is in Redis (never rejects).
 */
export function followJobLog(logger: Logger, job: Job, queues: Queues): () => Promise<void> {
  let transport = transports.get(logger);
  if (!transport) {
    transport = new JobLogTransport();
    logger.add(transport);
    transports.set(logger, transport);
  }
  return transport.follow(job, queues);
}
