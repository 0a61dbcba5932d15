import { z } from "zod";
import { defineJob } from "@mw/platform/queues";

/** Daily (RETENTION_SCHEDULE): the changes feed and directory audit rows past their retention. On `webhooks` with the other sweeps of inbound signals: the tickets domain has no queue. */
export const ticketsRetentionJob = defineJob({ queue: "retention", name: "tickets-retention", payload: z.object({}), schedule: { setting: "RETENTION_SCHEDULE" } });
