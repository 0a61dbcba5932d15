import { createRedis } from "@mw/platform";
import { Queue } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { progressReporter } from "./progress.ts";

const redis = createRedis(process.env.REDIS_URL!);
const queue = new Queue("reports", { connection: redis, prefix: process.env.QUEUE_PREFIX });
afterAll(async () => {
  await queue.close();
  await redis.quit();
});

describe("job progress", () => {
  it("stores done/total/percent on the job, throttled, with the final update always written", async () => {
    const job = await queue.add("progress-probe", {}, { delay: 60_000 });
    const report = progressReporter(job, 60_000);
    await report(1, 4, "first page");
    await report(2, 4);
    expect((await queue.getJob(job.id!))!.progress).toEqual({ done: 1, total: 4, percent: 25, note: "first page" });
    await report(4, 4);
    expect((await queue.getJob(job.id!))!.progress).toEqual({ done: 4, total: 4, percent: 100 });
    await job.remove();
  });
});
