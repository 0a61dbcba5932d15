import { readdir, stat } from "node:fs/promises";
import path from "node:path";

/** Queue log files live apart from the process logs: `LOG_DIR/queues`. */
export function queueLogDir(logDir: string): string {
  return path.join(path.resolve(logDir), "queues");
}

/** A file `rotatingFile` wrote: `<queue>-<day>.<writer>.log`, then `.1`, `.2` ... at each size rollover of a day. */
const FILE = /^(?<queue>[a-z0-9_]+)-(?<date>\d{4}-\d{2}-\d{2})\.(?<writer>[A-Za-z0-9_-]+)\.log(?:\.(?<part>\d+))?$/;

export interface QueueLogFile {
  name: string;
  path: string;
  queue: string;
  /** One writing process's files form a series, read in the order it wrote them. */
  series: string;
  /** Orders the files of a series: date, then size rollover. */
  order: string;
  size: number;
  mtimeMs: number;
}

/** The queue log files in the directory (optionally one queue's), with their size and last write. */
export async function listQueueLogFiles(dir: string, queue?: string): Promise<QueueLogFile[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const files: QueueLogFile[] = [];
  for (const name of names) {
    const match = FILE.exec(name)?.groups;
    if (!match || (queue && match.queue !== queue)) continue;
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (!info?.isFile()) continue; // removed meanwhile
    files.push({
      name,
      path: path.join(dir, name),
      queue: match.queue!,
      series: `${match.queue}.${match.writer}`,
      order: `${match.date}.${(match.part ?? "0").padStart(6, "0")}`,
      size: info.size,
      mtimeMs: info.mtimeMs,
    });
  }
  return files;
}
