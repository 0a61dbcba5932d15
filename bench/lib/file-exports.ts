import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { rssMegabytes, sampleRss } from "./processes.ts";

/** One report or CSV export run once: how long, how many rows, and how far the process that built it grew. */
export interface FileTiming {
  ms: number;
  rows: number;
  bytes: number | null;
  rowsPerSecond: number;
  /** Peak resident memory above the process's reading just before, MB. */
  peakMbAboveIdle: number | null;
}

/**
 * Runs `work` while sampling `child`'s resident memory (every 50 ms: a small
 * export is over within one 250 ms sample) and answers its time and the peak
 * above the reading taken just before it started.
 */
export async function measureFile(child: ChildProcess, work: () => Promise<{ rows: number; bytes: number | null }>): Promise<FileTiming> {
  const idle = rssMegabytes(child);
  const rss = sampleRss(child, 50);
  const started = performance.now();
  let done;
  let peak;
  try {
    done = await work();
  } finally {
    peak = rss.stop();
  }
  const ms = performance.now() - started;
  return {
    ms: Math.round(ms * 10) / 10,
    rows: done.rows,
    bytes: done.bytes,
    rowsPerSecond: Math.round(done.rows / (ms / 1000)),
    peakMbAboveIdle: peak === undefined || idle === undefined ? null : Math.max(0, peak - idle),
  };
}

type Call = (path: string, init?: RequestInit) => Promise<Response>;

/** Queues a report (POST /reports) and waits for the worker to complete it; answers its id and row count. */
export async function runReport(call: Call, request: Record<string, string>, timeoutMs: number): Promise<{ id: number; rows: number }> {
  const queued = await call("/reports", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) });
  if (queued.status !== 202) throw new Error(`POST /reports answered ${queued.status}: ${(await queued.text()).slice(0, 200)}`);
  const { report_id: id } = (await queued.json()) as { report_id: number };
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const report = (await (await call(`/reports/${id}`)).json()) as { status: string; row_count: number | null; error: string | null };
    if (report.status === "completed") return { id, rows: report.row_count ?? 0 };
    if (report.status === "failed") throw new Error(`report ${id} (${request.type}) failed: ${report.error}`);
    await sleep(100);
  }
  throw new Error(`report ${id} (${request.type}) did not complete within ${timeoutMs / 1000} s`);
}

/** Reads a CSV answer to its end without keeping it: its size, and its rows less the header. */
export async function readCsv(res: Response): Promise<{ rows: number; bytes: number }> {
  if (res.status !== 200 || !res.body) throw new Error(`CSV answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  return { rows: Math.max(0, lines - 1), bytes };
}
