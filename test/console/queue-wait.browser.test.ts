import { itemHistoryCleanupJob } from "@mw/domains/inventory";
import { afterAll, describe, expect, it } from "vitest";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";
import { until } from "../support/wait.ts";

// The operations page's queue wait charts against the jobs a real worker ran:
// each job's wait is its start (processedOn) less the time it was ready
// (timestamp, plus its delay), bucketed by the hour it started.
const ui = useConsole();
const RUN = `W${process.pid % 10000}${Date.now() % 100000}`;
let worker: InProcessWorker | undefined;

afterAll(async () => {
  await worker?.stop();
});

const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13).replace("T", " ");
/** The page's rounding: a tenth, a thousandth below 1 (half a unit of it either way). */
const closeTo = (shown: number, seconds: number) => Math.abs(shown - seconds) <= (seconds < 1 ? 0.0005 : 0.05) + 1e-9;

describe("queue wait on the operations page", () => {
  it("draws each queue's average and longest wait per hour as the jobs run, links to the queue's jobs, and fits 375 px", async () => {
    const queue = ui.api.ctx.queues.get("inventory");
    // Jobs added before any worker runs wait for it; one waits out a delay first, which is not queue wait.
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await ui.api.ctx.queues.add(itemHistoryCleanupJob, {}, { jobId: `${RUN}-${i}` })).id!);
    ids.push((await ui.api.ctx.queues.add(itemHistoryCleanupJob, {}, { jobId: `${RUN}-delayed`, delay: 1500 })).id!);
    worker = await startInProcessWorker({ WORKER_QUEUES: "inventory" });
    await worker.waitFor(logged("workers started"), 120_000);
    await until(
      async () => (await Promise.all(ids.map((id) => queue.getJobState(id)))).every((state) => state === "completed"),
      () => `the jobs to complete\n${worker!.output().slice(-2000)}`,
      60_000,
    );

    // Every job the queue started on its first attempt, as BullMQ recorded it (a wait is recorded as its
    // job starts, and the worker's schedules may start one at any moment, an hour's first included): read
    // before and after the page is drawn, drawn again until both agree, so page and expectation see the same jobs.
    const ranJobs = async () => (await queue.getJobs(["active", "completed", "failed"])).filter((job) => job.attemptsStarted === 1 && job.processedOn);
    const page = await (await ui.newContext({ viewport: { width: 375, height: 800 } })).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["manage_middleware"]));
    const chart = page.locator("#chart-queue-wait-inventory");
    let ran = await ranJobs();
    for (let reads = 1; ; reads += 1) {
      await page.goto(`${ui.api.url}/console/operations`);
      const after = await ranJobs();
      if (after.map((job) => job.id).sort().join() === ran.map((job) => job.id).sort().join()) break;
      expect(reads, "the queue's finished jobs kept changing while the page was drawn").toBeLessThan(10);
      ran = after;
    }
    expect(ran.map((job) => job.id)).toEqual(expect.arrayContaining(ids));
    const expected = new Map<string, number[]>();
    for (const job of ran) {
      const hour = hourOf(job.processedOn!);
      expected.set(hour, [...(expected.get(hour) ?? []), Math.max(0, job.processedOn! - job.timestamp - (job.delay || 0)) / 1000]);
    }
    const delayed = ran.find((job) => job.id === `${RUN}-delayed`)!;
    expect(delayed.processedOn! - delayed.timestamp).toBeGreaterThanOrEqual(1500);

    const bars = new Map(
      (await chart.locator("rect.bar").evaluateAll((rects) => rects.map((rect) => [rect.getAttribute("data-hour")!, Number(rect.getAttribute("data-value"))] as const))).filter(([, value]) => value !== 0),
    );
    const marks = new Map(await chart.locator("line.max").evaluateAll((lines) => lines.map((line) => [line.getAttribute("data-hour")!, Number(line.getAttribute("data-max"))] as const)));
    expect(await chart.locator("rect.bar").count()).toBe(24);
    expect([...marks.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [hour, waits] of expected) {
      const average = waits.reduce((sum, wait) => sum + wait, 0) / waits.length;
      expect(closeTo(bars.get(hour) ?? 0, average), `${hour}: average ${bars.get(hour)} against ${average}`).toBe(true);
      expect(closeTo(marks.get(hour)!, Math.max(...waits)), `${hour}: longest ${marks.get(hour)} against ${Math.max(...waits)}`).toBe(true);
    }
    // Queues that started nothing get no chart, only their name.
    expect(await page.locator("#chart-queue-wait-orders").count()).toBe(0);
    expect(await page.locator("#idle-queues").textContent()).toContain("orders");

    // Readable on a phone, and a link to the queue's finished jobs with their created and started times.
    const box = (await chart.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await page.locator("a", { has: chart }).click();
    await page.waitForURL(/\/queue\?queue=inventory&status=completed/);
    const list = (await (await page.request.get(page.url())).json()) as { jobs: { id: string; created_at: string; started_at: string | null }[] };
    expect(list.jobs.map((job) => job.id)).toEqual(expect.arrayContaining(ids));
    expect(list.jobs.every((job) => job.started_at !== null)).toBe(true);
  }, 240_000);
});
