import { setTimeout as sleep } from "node:timers/promises";
import type { Job, Queue } from "bullmq";
import type { Output } from "./processes.ts";

/**
 * Polls `check` every 25 ms until it holds. After `timeoutMs` it throws,
 * naming `what()`; that is called only then, so it can show the latest state.
 */
export async function until(check: () => boolean | Promise<boolean>, what: () => string, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await sleep(25);
  }
}

/** Waits until the job is completed or failed and returns it as stored then; on timeout, the error shows the worker's output. */
export async function settled(queue: Queue, job: Job, worker?: Output, timeoutMs = 45_000): Promise<Job> {
  const id = job.id!;
  let state = "";
  await until(
    async () => {
      state = await queue.getJobState(id);
      return state === "completed" || state === "failed";
    },
    () => `job ${id} to finish (last state ${state}); worker output:\n${worker?.output() ?? "(none)"}`,
    timeoutMs,
  );
  return (await queue.getJob(id))!;
}
