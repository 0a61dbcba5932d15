import { z } from "zod";
import { defineJob } from "@mw/platform/queues";

/** Daily (RETENTION_SCHEDULE): sync runs and sync errors past their retention. On the tracking queue: the sites domain has none of its own, and sync runs are mostly tracking's. */
export const sitesRetentionJob = defineJob({ queue: "retention", name: "sites-retention", payload: z.object({}), schedule: { setting: "RETENTION_SCHEDULE" } });
