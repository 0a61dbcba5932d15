import { readdir, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import DailyRotateFile from "winston-daily-rotate-file";

/** Days a log file is kept unless LOG_RETENTION_DAYS says otherwise (spec 2, section 8). */
const DEFAULT_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * The writing process's part of a file name. Each process writes files of its
 * own (see docs/decisions.md, "Logging"): size rotation counts the bytes one
 * process wrote, so two writers sharing a file would each let it grow past the
 * limit and overwrite each other's rotation record.
 */
export function writerTag(): string {
  return `${hostname().replace(/[^A-Za-z0-9_-]/g, "_")}-${process.pid}`;
}

/**
 * Files of processes that no longer run are not in any live writer's audit
 * file, so winston-daily-rotate-file would never expire them: every new file
 * sweeps its directory by age. Best effort: a file that cannot be removed now
 * is tried again at the next rollover.
 */
export async function removeExpiredLogFiles(dir: string, days: number, now = Date.now()): Promise<string[]> {
  const oldest = now - days * DAY_MS;
  const removed: string[] = [];
  for (const name of await readdir(dir).catch(() => [])) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || info.mtimeMs >= oldest) continue;
    if (await rm(file, { force: true }).then(() => true, () => false)) removed.push(name);
  }
  return removed.sort();
}

/**
 * One process's daily log file `<base>-YYYY-MM-DD.<host>-<pid>.log` in `dir`,
 * rolled over at `maxSize` (`.1`, `.2` ... within a day) and kept
 * `days` (LOG_RETENTION_DAYS), with the files of stopped processes swept by age at each new file (daily at least
 * while the process writes).
 */
export function rotatingFile(dir: string, base: string, maxSize: string, days = DEFAULT_RETENTION_DAYS): DailyRotateFile {
  const writer = writerTag();
  const file = new DailyRotateFile({
    dirname: dir,
    filename: `${base}-%DATE%.${writer}.log`,
    datePattern: "YYYY-MM-DD",
    maxSize,
    // The library counts whole days; the sweep below honours a fraction (tests, soaks).
    maxFiles: `${Math.max(1, Math.ceil(days))}d`,
    auditFile: path.join(dir, `.${base}.${writer}-audit.json`),
  });
  file.on("new", () => void removeExpiredLogFiles(dir, days));
  return file;
}
