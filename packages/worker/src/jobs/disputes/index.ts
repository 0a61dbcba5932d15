import { processDisputeJob } from "@mw/domains/disputes";
import { handle } from "../../runtime/processor.ts";
import { processDispute } from "./process-dispute.ts";

export const disputeHandlers = [handle(processDisputeJob, processDispute)];
