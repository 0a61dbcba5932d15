import { z } from "zod";
import { defineJob, jobId } from "@mw/platform/queues";

/** Match one acquirer dispute (spec 1, 4.6); `event_id` (acquirer_case_<case id>) says which, in Bull Board and GET /queue. */
export const processDisputeJob = defineJob({
  queue: "disputes",
  name: "process-dispute",
  payload: z.object({ webhook_id: z.number().int().positive(), event_id: z.string().max(191).optional() }),
});

/** The job of a dispute webhook row: keyed by its event id when it has one, else by the row. */
export function disputeJobId(row: { id: number; event_id: string | null }): string {
  return row.event_id ? jobId("dispute", row.event_id) : jobId("dispute", "webhook", row.id);
}

/** An operator's replay runs beside the original job, never deduplicated against it. */
export function disputeReplayJobId(row: { id: number; event_id: string | null }, at: number): string {
  return jobId(disputeJobId(row), "replay", at);
}

/** The several-matches alert of a case, sent once however often the case is processed. */
export const disputeAlertJobId = (caseId: string) => jobId("dispute-alert", caseId);
