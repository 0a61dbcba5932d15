import type { Job } from "bullmq";

export interface JobProgress {
  done: number;
  total: number;
  percent: number;
  note?: string;
}

/**
 * Progress of a long job as Bull Board shows it. Updates are throttled to one
 * a second (each is a Redis write) except the last, which always lands.
 */
export function progressReporter(job: Job, minIntervalMs = 1000): (done: number, total: number, note?: string) => Promise<void> {
  let last = 0;
  return async (done, total, note) => {
    const now = Date.now();
    if (done < total && now - last < minIntervalMs) return;
    last = now;
    const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 100;
    const progress: JobProgress = { done, total, percent, ...(note ? { note } : {}) };
    await job.updateProgress(progress);
  };
}
