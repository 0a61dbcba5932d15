import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { repeatOf, type QueueLogLine } from "@mw/platform";
import { healthPingJob } from "@mw/domains/notifications";
import { SCHEDULED_JOBS } from "@mw/domains/schedules";
import { inboxSweepJob } from "@mw/domains/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, testConfig, userWith, type TestApi } from "../support/api.ts";
import { logged, spawnEntry, type Spawned } from "../support/processes.ts";
import { settled, until } from "../support/wait.ts";

// Spec 2, section 8 and design 10.8: per-queue log files in LOG_DIR (rolled
// over at QUEUE_LOG_MAX_SIZE, here 5 KB), read and cleared through the admin
// AJAX actions get_logs and clear_logs; get_cron_queue shows what runs next.

const LIMIT = 5 * 1024;
const RUN = `${process.pid}-${Date.now() % 100000}`;

let api: TestApi;
let admin: string;
let logDir: string;
let queueDir: string;
let pinged: Server;
let pingUrl: string;
const workers: Spawned[] = [];

type Json = ReturnType<typeof JSON.parse>;

async function post(fields: Record<string, unknown>, authorization = admin) {
  const res = await fetch(`${api.url}/admin-ajax`, { method: "POST", headers: { authorization, "content-type": "application/json" }, body: JSON.stringify(fields) });
  return { status: res.status, body: (await res.json()) as { success: boolean; data: Json } };
}

async function act(action: string, fields: Record<string, unknown> = {}) {
  const answer = await post({ action, ...fields });
  expect(answer, `${action}: ${JSON.stringify(answer.body)}`).toMatchObject({ status: 200, body: { success: true } });
  return answer.body.data;
}

const getLogs = async (fields: Record<string, unknown>) => (await act("get_logs", fields)) as { lines: QueueLogLine[]; limit: number; more: boolean };

function startWorker(env: Record<string, string> = {}): Spawned {
  const worker = spawnEntry("packages/worker/src/main.ts", [], { LOG_DIR: logDir, QUEUE_LOG_MAX_SIZE: "5k", ...env });
  workers.push(worker);
  return worker;
}

interface LogFile {
  name: string;
  writer: string;
  order: string;
  content: string;
}

/** The queue's files as they are on disk, each writer's in the order it wrote them. */
async function queueFiles(queue: string): Promise<LogFile[]> {
  const files: LogFile[] = [];
  for (const name of await readdir(queueDir)) {
    const match = new RegExp(`^${queue}-(\\d{4}-\\d{2}-\\d{2})\\.([\\w-]+)\\.log(?:\\.(\\d+))?$`).exec(name);
    if (match) files.push({ name, writer: match[2]!, order: `${match[1]}.${(match[3] ?? "0").padStart(6, "0")}`, content: await readFile(path.join(queueDir, name), "utf8") });
  }
  return files.sort((a, b) => a.writer.localeCompare(b.writer) || a.order.localeCompare(b.order));
}

const parsedLines = (files: LogFile[]) =>
  files.flatMap((file) =>
    file.content
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, Json>),
  );

async function ping(id: string, url = pingUrl, options: { attempts?: number; delay?: number } = {}) {
  return api.ctx.queues.add(healthPingJob, { url }, { jobId: id, ...options });
}

const notifications = () => api.ctx.queues.get("notifications");

beforeAll(async () => {
  logDir = await mkdtemp(path.join(tmpdir(), "queue-logs-"));
  queueDir = path.join(logDir, "queues");
  pinged = createServer((req, res) => {
    res.statusCode = req.url?.startsWith("/down") ? 503 : 200;
    res.end("ok");
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => pinged.once("listening", resolve));
  pingUrl = `http://127.0.0.1:${(pinged.address() as AddressInfo).port}/ping`;
  api = await startApi({ LOG_DIR: logDir });
  admin = await userWith(api, "manage_options");
  // Files a process that is gone wrote 31 and 29 days ago: no live writer's audit file lists them.
  await mkdir(queueDir);
  for (const [name, days] of [["notifications-2026-10-25.gone-1.log", 31], ["notifications-2026-10-27.gone-1.log", 29]] as const) {
    await writeFile(path.join(queueDir, name), "");
    const time = new Date(Date.now() - days * 86_400_000);
    await utimes(path.join(queueDir, name), time, time);
  }
  const worker = startWorker();
  await worker.waitFor(/"message":"schedules reconciled".*"why":"worker started"/, 30_000);
}, 60_000);

afterAll(async () => {
  for (const worker of workers) {
    if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
    await worker.exited();
  }
  await api?.close();
  await new Promise((resolve) => pinged?.close(resolve));
  await rm(logDir, { recursive: true, force: true });
});

describe("queue log files", () => {
  it("writes a job's lines to its queue's file, JSON lines with secrets redacted", async () => {
    const id = `logs-test.${RUN}.secret`;
    const secretUrl = pingUrl.replace("http://", "http://probe:hunter2secret@") + "?api_key=abc123key";
    const job = await settled(notifications(), await ping(id, secretUrl), workers[0]);
    expect(job.finishedOn).toBeTruthy();
    await until(async () => parsedLines(await queueFiles("notifications")).some((line) => line.job_id === id && line.message === "job completed"), () => "the job's lines in its file");

    // A writer's new file expires what is older than 30 days, whoever wrote it.
    const gone = async () => (await readdir(queueDir)).filter((name) => name.includes("gone-1"));
    await until(async () => (await gone()).length === 1, () => `the expired file removed (see the directory)`);
    expect(await gone()).toEqual(["notifications-2026-10-27.gone-1.log"]);
    await rm(path.join(queueDir, "notifications-2026-10-27.gone-1.log"));

    const files = await queueFiles("notifications");
    expect(files.every((file) => file.writer.endsWith(`-${workers[0]!.child.pid}`))).toBe(true);
    const own = parsedLines(files).filter((line) => line.job_id === id);
    expect(own.map((line) => line.message)).toEqual(["job started", "health-check URL pinged", "job completed"]);
    expect(own.every((line) => line.queue === "notifications" && line.job_name === "health-ping")).toBe(true);
    const text = files.map((file) => file.content).join("");
    expect(text).not.toMatch(/hunter2secret|abc123key/);
    expect(own[1]!.url).toContain("[REDACTED]");
    // Lines of other queues go to their own files, never to this one.
    expect(parsedLines(files).every((line) => line.queue === "notifications")).toBe(true);
  });

  it("rolls a file over at QUEUE_LOG_MAX_SIZE, one series of files per writing process", async () => {
    const second = startWorker({ WORKER_QUEUES: "notifications" });
    await second.waitFor(logged("workers started"), 30_000);
    const jobs = await Promise.all(Array.from({ length: 40 }, (_, i) => ping(`logs-test.${RUN}.burst-${i}`)));
    for (const job of jobs) await settled(notifications(), job, workers[0], 30_000);
    await until(
      async () => parsedLines(await queueFiles("notifications")).filter((line) => line.message === "job completed" && String(line.job_id).includes(".burst-")).length === 40,
      () => "every burst job's last line in the files",
    );

    const files = await queueFiles("notifications");
    const writers = [...new Set(files.map((file) => file.writer))];
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const writer of writers) {
      const series = files.filter((file) => file.writer === writer);
      series.forEach((file, i) => {
        const size = Buffer.byteLength(file.content);
        const last = Buffer.byteLength(file.content.trimEnd().split("\n").at(-1)!) + 1;
        // A file takes lines while it is under the limit: the last one may take it past it, by that line alone.
        expect(size - last, file.name).toBeLessThanOrEqual(LIMIT);
        if (i < series.length - 1) expect(size, file.name).toBeGreaterThan(LIMIT);
        expect(file.content.endsWith("\n") && !file.content.includes("\u0000"), file.name).toBe(true);
      });
    }
    // Both workers took jobs, each into files of its own; every line is whole.
    expect(writers.map((writer) => writer.split("-").at(-1)).sort()).toEqual([String(workers[0]!.child.pid), String(second.child.pid)].sort());
    expect(parsedLines(files).length).toBeGreaterThan(120);
  }, 90_000);

  it("get_logs answers the newest lines first across files and writers, bounded and filtered", async () => {
    const failing = await settled(notifications(), await ping(`logs-test.${RUN}.down`, pingUrl.replace("/ping", "/down"), { attempts: 1 }), workers[0]);
    expect(failing.failedReason).toBeTruthy();
    const sweep = await api.ctx.queues.add(inboxSweepJob, {}, { jobId: `outbox-sweep.logs-test.${RUN}` });
    await settled(api.ctx.queues.get("webhooks"), sweep, workers[0]);
    await until(async () => parsedLines(await queueFiles("notifications")).some((line) => line.job_id === failing.id && line.message === "job failed"), () => "the failure in the file");
    const onDisk = parsedLines(await queueFiles("notifications"));

    const all = await getLogs({ queue: "notifications", limit: 1000 });
    const times = all.lines.map((line) => line.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.lines).toHaveLength(onDisk.length);
    expect(all.more).toBe(false);
    expect(all.lines.filter((line) => line.message === "health-check URL pinged").length).toBe(41);
    expect(all.lines.every((line) => line.queue === "notifications")).toBe(true);
    expect(all.lines[0]).toMatchObject({ job_id: failing.id, level: "error", message: "job failed", job_name: "health-ping", fields: { attempt: 1 } });

    // Bounded: the default is 100, and the first lines are the same newest ones.
    const firstFive = await getLogs({ queue: "notifications", limit: "5" });
    expect(firstFive).toMatchObject({ limit: 5, more: true });
    expect(firstFive.lines).toEqual(all.lines.slice(0, 5));
    const byDefault = await getLogs({ queue: "notifications" });
    expect(byDefault).toMatchObject({ limit: 100, more: true });
    expect(byDefault.lines).toHaveLength(100);
    expect((await post({ action: "get_logs", limit: 1001 })).body).toEqual({ success: false, data: expect.stringMatching(/^limit: /) });
    expect((await post({ action: "get_logs", level: "fatal" })).body).toEqual({ success: false, data: expect.stringMatching(/^level: /) });

    // level: that level and the more severe ones.
    const errors = await getLogs({ queue: "notifications", level: "error", limit: 1000 });
    expect(errors.lines.length).toBeGreaterThan(0);
    expect(errors.lines.every((line) => line.level === "error")).toBe(true);
    expect(errors.lines.map((line) => line.job_id)).toContain(failing.id);
    const warnings = await getLogs({ queue: "notifications", level: "warn", limit: 1000 });
    expect(warnings.lines.every((line) => ["warn", "error"].includes(line.level))).toBe(true);
    expect(warnings.lines.length).toBeGreaterThanOrEqual(errors.lines.length);
    expect((await getLogs({ queue: "notifications", level: "info", limit: 1000 })).lines.every((line) => line.level !== "debug")).toBe(true);

    // text: case-insensitive, in the message, the job id or a field.
    const pings = await getLogs({ queue: "notifications", text: "HEALTH-CHECK url PINGED", limit: 1000 });
    expect(pings.lines).toHaveLength(41);
    expect(pings.lines.every((line) => line.message === "health-check URL pinged")).toBe(true);
    const one = await getLogs({ text: `LOGS-TEST.${RUN}.BURST-7`.toUpperCase(), limit: 1000 });
    expect(new Set(one.lines.map((line) => line.job_id))).toEqual(new Set([`logs-test.${RUN}.burst-7`]));
    expect(one.lines.map((line) => line.message)).toEqual(["job completed", "health-check URL pinged", "job started"]);
    expect((await getLogs({ queue: "notifications", text: "error=health-check url answered http 503", limit: 1000 })).lines.map((line) => line.job_id)).toContain(failing.id);

    // since: nothing older.
    const since = all.lines[30]!.timestamp;
    const recent = await getLogs({ queue: "notifications", since, limit: 1000 });
    expect(recent.lines).toEqual(all.lines.filter((line) => line.timestamp >= since));

    // queue: one queue's files; without it, every queue's.
    const webhooks = await getLogs({ queue: "webhooks", limit: 1000 });
    expect(webhooks.lines.length).toBeGreaterThan(0);
    expect(webhooks.lines.every((line) => line.queue === "webhooks")).toBe(true);
    expect(webhooks.lines.map((line) => line.job_id)).toContain(sweep.id);
    const everything = await getLogs({ limit: 1000 });
    expect([...new Set(everything.lines.map((line) => line.queue))]).toEqual(expect.arrayContaining(["notifications", "webhooks"]));
    expect(everything.lines.some((line) => line.job_id === sweep.id) && everything.lines.some((line) => line.job_id === failing.id)).toBe(true);
    const everyTime = everything.lines.map((line) => line.timestamp);
    expect(everyTime).toEqual([...everyTime].sort().reverse());
  }, 60_000);

  it("clear_logs removes rolled-over files and empties the live ones, whose writers keep appending", async () => {
    const before = await queueFiles("notifications");
    const webhooksBefore = await queueFiles("webhooks");
    const live = [...new Set(before.map((file) => file.writer))].map((writer) => before.filter((file) => file.writer === writer).at(-1)!.name);
    const rolled = before.map((file) => file.name).filter((name) => !live.includes(name));
    expect(rolled.length).toBeGreaterThan(0);

    expect(await act("clear_logs", { queue: "notifications" })).toEqual({ removed: rolled.sort(), truncated: live.sort() });
    const after = await readdir(queueDir);
    for (const name of rolled) expect(after).not.toContain(name);
    for (const name of live) expect((await stat(path.join(queueDir, name))).size).toBe(0);
    expect((await queueFiles("webhooks")).map((file) => file.name)).toEqual(webhooksBefore.map((file) => file.name));
    expect((await getLogs({ queue: "notifications" })).lines).toEqual([]);

    // The writers still hold their files: new lines arrive whole, at the start of the emptied file (or in a next one).
    const jobs = await Promise.all([0, 1, 2, 3].map((i) => ping(`logs-test.${RUN}.after-${i}`)));
    for (const job of jobs) await settled(notifications(), job, workers[0]);
    await until(async () => parsedLines(await queueFiles("notifications")).filter((line) => line.message === "job completed").length === 4, () => "the new jobs' lines");
    for (const file of await queueFiles("notifications")) {
      expect(file.content === "" || (file.content.startsWith("{") && file.content.endsWith("\n") && !file.content.includes("\u0000")), file.name).toBe(true);
    }
    const fresh = await getLogs({ queue: "notifications", text: "job completed" });
    expect(fresh.lines.map((line) => line.job_id).sort()).toEqual(jobs.map((job) => job.id).sort());

    // Without a queue: every queue's files.
    const cleared = (await act("clear_logs")) as { removed: string[]; truncated: string[] };
    expect(cleared.truncated.some((name) => name.startsWith("webhooks-"))).toBe(true);
    expect(cleared.truncated.some((name) => name.startsWith("notifications-"))).toBe(true);
  }, 60_000);
});

describe("get_cron_queue", () => {
  it("lists every job scheduler with its next run, and delayed jobs with when they run", async () => {
    const delayed = await ping(`logs-test.${RUN}.later`, pingUrl, { delay: 3_600_000 });
    const answer = (await act("get_cron_queue")) as { schedulers: Json[]; delayed: Json[]; more: boolean };
    for (const job of SCHEDULED_JOBS) {
      const scheduler = answer.schedulers.find((entry: { queue: string; key: string }) => entry.queue === job.queue && entry.key === job.name);
      const repeat = repeatOf(job.schedule!, testConfig());
      expect(scheduler, `${job.queue}/${job.name}`).toMatchObject({
        name: job.name,
        pattern: "pattern" in repeat ? repeat.pattern : null,
        every_ms: "every" in repeat ? repeat.every : null,
      });
      expect(Date.parse(scheduler.next_run), `${job.name} next run`).toBeGreaterThan(Date.now() - 60_000);
      expect(scheduler.next_run).toBe(new Date(scheduler.next_run).toISOString());
    }
    const entry = answer.delayed.find((job: { id: string }) => job.id === delayed.id);
    expect(entry).toMatchObject({ queue: "notifications", name: "health-ping", attempts_made: 0 });
    expect(Math.abs(Date.parse(entry.runs_at) - (delayed.timestamp + 3_600_000))).toBeLessThan(1000);
    // A scheduler's next run is listed as the scheduler's, not again as a delayed job.
    expect(answer.delayed.every((job: { id: string }) => !job.id.startsWith("repeat:"))).toBe(true);

    const inventory = (await act("get_cron_queue", { queue: "inventory", limit: "1" })) as { schedulers: { queue: string }[]; delayed: unknown[] };
    expect(inventory.schedulers.length).toBeGreaterThan(0);
    expect(inventory.schedulers.every((scheduler) => scheduler.queue === "inventory")).toBe(true);
    expect(inventory.delayed).toEqual([]);
    await delayed.remove();
  });
});

describe("who may use them", () => {
  it("answers Insufficient permissions to a staff-only user, and lists the actions in the OpenAPI document", async () => {
    const staff = await userWith(api, "staff");
    for (const action of ["get_logs", "clear_logs", "get_cron_queue"]) {
      expect(await post({ action }, staff)).toEqual({ status: 403, body: { success: false, data: "Insufficient permissions" } });
    }
    const document = (await (await fetch(`${api.url}/openapi.json`)).json()) as { paths: Record<string, Json> };
    expect(Object.keys(document.paths["/admin-ajax"].post.requestBody.content["application/json"].examples)).toEqual(expect.arrayContaining(["get_logs", "clear_logs", "get_cron_queue"]));
  });
});
