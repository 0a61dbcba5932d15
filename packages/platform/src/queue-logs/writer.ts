import type DailyRotateFile from "winston-daily-rotate-file";
import Transport from "winston-transport";
import type { Config } from "../config/config.ts";
import { writableDir, type Logger } from "../logging/logger.ts";
import { QUEUE_NAMES } from "../config/queue-names.ts";
import { rotatingFile } from "../logging/rotating-file.ts";
import { queueLogDir } from "./files.ts";

/**
 * Writes every line of a running job (a line carrying `queue` and `job_id`, as
 * the job's child logger adds them) to its queue's file in LOG_DIR/queues:
 * JSON lines, after the logger's redaction, rolled over at
 * QUEUE_LOG_MAX_SIZE and daily, kept LOG_RETENTION_DAYS (30 by default: spec 2, section 8).
 */
class QueueLogTransport extends Transport {
  private readonly files = new Map<string, DailyRotateFile>();

  constructor(
    private readonly dir: string,
    private readonly maxSize: string,
    private readonly days: number,
  ) {
    super();
  }

  private file(queue: string): DailyRotateFile {
    let file = this.files.get(queue);
    if (!file) {
      file = rotatingFile(this.dir, queue, this.maxSize, this.days);
      // A full disk must not stop the jobs; the process log says it once per queue.
      let told = false;
      file.on("error", (error: Error) => {
        if (!told) console.error(`queue log file of ${queue} cannot be written: ${error.message}`);
        told = true;
      });
      this.files.set(queue, file);
    }
    return file;
  }

  override log(info: Record<string, unknown>, next: () => void): void {
    const queue = info.queue;
    if (typeof queue === "string" && (QUEUE_NAMES as readonly string[]).includes(queue) && info.job_id !== undefined) {
      this.file(queue).log!(info, next);
      return;
    }
    next();
  }

  override close(): void {
    for (const file of this.files.values()) file.close?.();
  }
}

/** Adds the queue log files to a worker's logger; nothing when LOG_DIR cannot be written (the logger says so already). */
export function writeQueueLogFiles(logger: Logger, config: Pick<Config, "LOG_DIR" | "QUEUE_LOG_MAX_SIZE" | "LOG_RETENTION_DAYS">): void {
  const dir = queueLogDir(config.LOG_DIR);
  if (writableDir(dir)) logger.add(new QueueLogTransport(dir, config.QUEUE_LOG_MAX_SIZE, config.LOG_RETENTION_DAYS));
}
