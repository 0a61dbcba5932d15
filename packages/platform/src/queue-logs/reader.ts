import { open } from "node:fs/promises";
import winston from "winston";
import { listQueueLogFiles, type QueueLogFile } from "./files.ts";

const CHUNK = 64 * 1024;
/** A line longer than this is skipped rather than held in memory (no job writes one; a damaged file might). */
const MAX_LINE = 1024 * 1024;

/** The raw lines of a file, last first, read in chunks from its end as it was when opened. */
async function* linesBackwards(file: string): AsyncGenerator<string> {
  const handle = await open(file, "r").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null; // cleared meanwhile
    throw error;
  });
  if (!handle) return;
  try {
    let position = (await handle.stat()).size;
    // The bytes after the newest newline seen so far: the end part of a line whose start is further back.
    let tail = Buffer.alloc(0);
    let oversized = false;
    while (position > 0) {
      const length = Math.min(CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      let end = length;
      for (let i = length - 1; i >= 0; i--) {
        if (chunk[i] !== 0x0a) continue;
        const line = oversized ? "" : Buffer.concat([chunk.subarray(i + 1, end), tail]).toString("utf8");
        tail = Buffer.alloc(0);
        oversized = false;
        if (line) yield line;
        end = i;
      }
      if (!oversized) tail = Buffer.concat([chunk.subarray(0, end), tail]);
      if (tail.length > MAX_LINE) {
        oversized = true;
        tail = Buffer.alloc(0);
      }
    }
    if (!oversized && tail.length) yield tail.toString("utf8");
  } finally {
    await handle.close();
  }
}

export interface QueueLogLine {
  timestamp: string;
  level: string;
  queue: string;
  job_id: string | null;
  job_name: string | null;
  message: string;
  /** Everything else the line carries (attempt, duration_ms, error, ...). */
  fields: Record<string, unknown>;
}

export interface QueueLogQuery {
  queue?: string;
  /** This level and the more severe ones. */
  level?: string;
  /** A case-insensitive substring of the message, job id, job name or a field as `key=value`. */
  text?: string;
  since?: Date;
  limit: number;
}

const LEVELS = winston.config.npm.levels;

/**
 * File times come from the kernel's coarse clock, which lags the clock that
 * stamps the lines by up to a tick: a file's newest line may be a few ms
 * "younger" than its mtime. Files are read as if written this much later.
 */
const MTIME_SLACK_MS = 1000;

function parse(raw: string, queue: string): (QueueLogLine & { time: number }) | null {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return null; // a line cut short by a crash mid-write
  }
  const { timestamp, level, message, service: _service, queue: _queue, job_id, job_name, ...fields } = entry;
  const time = typeof timestamp === "string" ? Date.parse(timestamp) : NaN;
  if (Number.isNaN(time) || typeof level !== "string") return null;
  return {
    time,
    timestamp: timestamp as string,
    level,
    queue,
    job_id: job_id === undefined || job_id === null ? null : String(job_id),
    job_name: typeof job_name === "string" ? job_name : null,
    message: String(message ?? ""),
    fields,
  };
}

function matches(line: QueueLogLine, query: QueueLogQuery): boolean {
  if (query.level && (LEVELS[line.level] ?? Infinity) > LEVELS[query.level]!) return false;
  if (!query.text) return true;
  const text = [line.message, line.job_id, line.job_name, ...Object.entries(line.fields).map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)];
  return text.join(" ").toLowerCase().includes(query.text.toLowerCase());
}

/** One file's matching lines, newest first, until `since`. */
async function* matching(file: QueueLogFile, query: QueueLogQuery): AsyncGenerator<QueueLogLine & { time: number }> {
  for await (const raw of linesBackwards(file.path)) {
    const line = parse(raw, file.queue);
    if (!line) continue;
    if (query.since && line.time < query.since.getTime()) return;
    if (matches(line, query)) yield line;
  }
}

interface Source {
  lines: AsyncGenerator<QueueLogLine & { time: number }>;
  head?: QueueLogLine & { time: number };
}

async function advance(source: Source): Promise<void> {
  const next = await source.lines.next();
  source.head = next.done ? undefined : next.value;
}

/**
 * The newest matching lines of the queue log files, newest first, across
 * queues, writers and rolled-over files. Each file is written in time order,
 * so this is a merge of files read backwards; a file is opened only once its
 * last write (mtime, about the time of its newest line) could beat the lines
 * in hand, so a read holds a few 64 KB chunks however large the directory.
 */
export async function readQueueLogs(dir: string, query: QueueLogQuery): Promise<{ lines: QueueLogLine[]; more: boolean }> {
  const since = query.since?.getTime() ?? -Infinity;
  const files = (await listQueueLogFiles(dir, query.queue)).filter((file) => file.mtimeMs + MTIME_SLACK_MS >= since).sort((a, b) => b.mtimeMs - a.mtimeMs);
  const active: Source[] = [];
  const found: QueueLogLine[] = [];
  let opened = 0;
  const newest = () => active.reduce<Source | undefined>((best, source) => (!best || source.head!.time > best.head!.time ? source : best), undefined);
  try {
    // One line past the limit tells whether there is more.
    while (found.length <= query.limit) {
      while (opened < files.length && files[opened]!.mtimeMs + MTIME_SLACK_MS >= (newest()?.head!.time ?? -Infinity)) {
        const source: Source = { lines: matching(files[opened++]!, query) };
        await advance(source);
        if (source.head) active.push(source);
      }
      const top = newest();
      if (!top) break;
      const { time: _time, ...line } = top.head!;
      found.push(line);
      await advance(top);
      if (!top.head) active.splice(active.indexOf(top), 1);
    }
  } finally {
    await Promise.all(active.map((source) => source.lines.return(undefined)));
  }
  return { lines: found.slice(0, query.limit), more: found.length > query.limit };
}
