import { posix } from "node:path";
import { errors, isObjectNotFound, parseJobRef } from "@mw/platform";
import { formBool } from "@mw/domains/managed-sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { adminAction, FileAnswer, type AdminAction } from "../../http/admin-ajax.ts";

const CONTENT_TYPES: Record<string, string> = { ".csv": "text/csv; charset=utf-8", ".png": "image/png", ".json": "application/json" };

/** A job's stored file: the `storage_key` its result names (a report's CSV, a screenshot's PNG). */
function storedFile(result: unknown): { key: string; filename: string; content_type: string } | null {
  const key = (result as { storage_key?: unknown } | null)?.storage_key;
  if (typeof key !== "string") return null;
  return { key, filename: posix.basename(key), content_type: CONTENT_TYPES[posix.extname(key)] ?? "application/octet-stream" };
}

/** Design 10.8: what became of a job an admin action started (get_job), and its file. */
export function jobActions(ctx: Pick<AppContext, "queues" | "storage">): AdminAction[] {
  return [
    adminAction({
      name: "get_job",
      group: "Jobs",
      summary: "State, progress, result and failure of a job an action started (its job_id); download=1 answers its file (report CSV, screenshot PNG)",
      input: z.object({ job_id: z.string().trim().min(3).max(300), download: formBool.default(false) }),
      data: z.object({
        job_id: z.string(),
        queue: z.string(),
        name: z.string(),
        state: z.string(),
        progress: z.unknown(),
        result: z.unknown(),
        failed_reason: z.string().nullable(),
        attempts_made: z.number().int(),
        created_at: z.string(),
        finished_at: z.string().nullable(),
        file: z.object({ filename: z.string(), content_type: z.string() }).nullable(),
      }),
      example: {
        input: { job_id: "reports:report.12.1764064800000" },
        data: {
          job_id: "reports:report.12.1764064800000",
          queue: "reports",
          name: "dashboard-summary",
          state: "completed",
          progress: { done: 3, total: 3, message: "done" },
          result: { report_id: 12, rows: 9, storage_key: "reports/dashboard-summary/2026-11-25.csv" },
          failed_reason: null,
          attempts_made: 1,
          created_at: "2026-11-25T10:00:00.000Z",
          finished_at: "2026-11-25T10:00:01.000Z",
          file: { filename: "2026-11-25.csv", content_type: "text/csv; charset=utf-8" },
        },
      },
      handler: async (input) => {
        const ref = parseJobRef(input.job_id);
        // The state before the job's data: read the other way round, a job finishing in between reads as
        // completed without its result.
        const state = ref ? await ctx.queues.get(ref.queue).getJobState(ref.id) : "unknown";
        const job = ref && state !== "unknown" ? await ctx.queues.get(ref.queue).getJob(ref.id) : undefined;
        if (!ref || !job) throw errors.notFound(`No job ${input.job_id}: it never existed or has been removed from the queue's history.`);
        const file = state === "completed" ? storedFile(job.returnvalue) : null;
        if (input.download) {
          if (!file) throw errors.conflict("job_has_no_file", state === "completed" ? `Job ${input.job_id} made no file.` : `Job ${input.job_id} is ${state}; its file comes when it has completed.`);
          try {
            return new FileAnswer(file.filename, file.content_type, (await ctx.storage.get(file.key)).body);
          } catch (error) {
            if (isObjectNotFound(error)) throw errors.notFound(`The file of job ${input.job_id} is gone from storage; run the action again.`);
            throw error;
          }
        }
        return {
          job_id: input.job_id,
          queue: ref.queue,
          name: job.name,
          state,
          progress: job.progress,
          result: job.returnvalue ?? null,
          failed_reason: job.failedReason ?? null,
          attempts_made: job.attemptsMade,
          created_at: new Date(job.timestamp).toISOString(),
          finished_at: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
          file: file && { filename: file.filename, content_type: file.content_type },
        };
      },
    }),
  ];
}
