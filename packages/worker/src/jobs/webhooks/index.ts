import { outboxSweepJob } from "@mw/domains/webhooks";
import { handle } from "../../runtime/processor.ts";
import { outboxSweep } from "./outbox-sweep.ts";

export const webhookHandlers = [handle(outboxSweepJob, outboxSweep)];
