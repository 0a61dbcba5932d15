import { inboxSweepJob, webhooksRetentionJob } from "@mw/domains/webhooks";
import { handle } from "../../runtime/processor.ts";
import { inboxSweep } from "./inbox-sweep.ts";
import { webhooksRetention } from "./retention.ts";

export const webhookHandlers = [handle(inboxSweepJob, inboxSweep), handle(webhooksRetentionJob, webhooksRetention)];
