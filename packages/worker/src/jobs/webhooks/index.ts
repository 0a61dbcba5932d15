import { inboxSweepJob } from "@mw/domains/webhooks";
import { handle } from "../../runtime/processor.ts";
import { inboxSweep } from "./inbox-sweep.ts";

export const webhookHandlers = [handle(inboxSweepJob, inboxSweep)];
