import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readQueueLogs } from "./reader.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "queue-log-reader-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const at = (ms: number) => new Date(Date.UTC(2026, 10, 25, 10) + ms).toISOString();
const line = (ms: number, message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ timestamp: at(ms), level: "info", message, service: "worker", queue: "orders", job_id: `job-${ms}`, ...extra });

async function file(name: string, lines: string[], lastWriteMs: number) {
  await writeFile(path.join(dir, name), lines.map((text) => `${text}\n`).join(""));
  const time = new Date(Date.parse(at(lastWriteMs)));
  await utimes(path.join(dir, name), time, time);
}

describe("readQueueLogs", () => {
  it("reads files far larger than its chunks backwards, keeping multi-byte text whole across chunk edges", async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => line(i, `Bestellung ${i} – Größe ✓ ${"é".repeat(i % 37)}`));
    await file("orders-2026-11-25.host-1.log", lines, 3000);
    const { lines: read, more } = await readQueueLogs(dir, { limit: 1000 });
    expect(more).toBe(true);
    expect(read.map((entry) => entry.message)).toEqual(lines.slice(-1000).reverse().map((text) => (JSON.parse(text) as { message: string }).message));
    expect((await readQueueLogs(dir, { limit: 1000, text: "bestellung 7 " })).lines.map((entry) => entry.job_id)).toEqual(["job-7"]);
  });

  it("skips a line too long to hold and a line cut short, and reads on", async () => {
    await file("orders-2026-11-25.host-1.log", [line(1, "before"), line(2, "huge", { blob: "x".repeat(2 * 1024 * 1024) }), line(3, "after"), '{"timestamp":"2026-11-25T10:00:00.004Z","lev'], 10);
    expect((await readQueueLogs(dir, { limit: 10 })).lines.map((entry) => entry.message)).toEqual(["after", "before"]);
  });

  it("merges queues, writers and rolled-over files by time, and filters them", async () => {
    await file("orders-2026-11-25.host-1.log", [line(1, "a1"), line(4, "a4")], 4);
    await file("orders-2026-11-25.host-1.log.1", [line(6, "a6"), line(9, "a9")], 9);
    await file("orders-2026-11-25.host-2.log", [line(2, "b2"), line(5, "b5"), line(8, "b8")], 8);
    await file("reports-2026-11-25.host-2.log", [JSON.stringify({ timestamp: at(7), level: "warn", message: "r7", queue: "reports", job_id: "r" })], 7);
    await file("orders-2026-10-01.host-9.log", [line(-60 * 86_400_000, "old")], -60 * 86_400_000);
    const all = await readQueueLogs(dir, { limit: 100 });
    expect(all.lines.map((entry) => entry.message)).toEqual(["a9", "b8", "r7", "a6", "b5", "a4", "b2", "a1", "old"]);
    expect(all.lines[2]).toMatchObject({ queue: "reports", level: "warn", job_id: "r", fields: {} });
    expect((await readQueueLogs(dir, { queue: "orders", since: new Date(at(5)), limit: 100 })).lines.map((entry) => entry.message)).toEqual(["a9", "b8", "a6", "b5"]);
    expect((await readQueueLogs(dir, { level: "warn", limit: 100 })).lines.map((entry) => entry.message)).toEqual(["r7"]);
    expect(await readQueueLogs(dir, { limit: 3 })).toMatchObject({ lines: [{ message: "a9" }, { message: "b8" }, { message: "r7" }], more: true });
  });
});
