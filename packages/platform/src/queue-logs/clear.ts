import { rm, truncate } from "node:fs/promises";
import { listQueueLogFiles, type QueueLogFile } from "./files.ts";

/**
 * Removes the rolled-over queue log files and empties the live one of each
 * writer (the newest file of its series). Truncating rather than removing
 * keeps the writer working: it holds the file open with O_APPEND, so its next
 * line lands at the new end (offset 0), whole; a removed file would swallow
 * its lines until the next rollover.
 */
export async function clearQueueLogs(dir: string, queue?: string): Promise<{ removed: string[]; truncated: string[] }> {
  const series = new Map<string, QueueLogFile[]>();
  for (const file of await listQueueLogFiles(dir, queue)) series.set(file.series, [...(series.get(file.series) ?? []), file]);
  const removed: string[] = [];
  const truncated: string[] = [];
  for (const files of series.values()) {
    files.sort((a, b) => a.order.localeCompare(b.order));
    const live = files.pop()!;
    for (const file of files) {
      await rm(file.path, { force: true });
      removed.push(file.name);
    }
    const emptied = await truncate(live.path, 0).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return false; // expired meanwhile
        throw error;
      },
    );
    if (emptied) truncated.push(live.name);
  }
  return { removed: removed.sort(), truncated: truncated.sort() };
}
