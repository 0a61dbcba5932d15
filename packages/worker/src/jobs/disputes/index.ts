import { processDisputeJob } from "@mw/shared/disputes";
import { handle } from "../../runtime/processor.ts";
import { processDispute } from "./process-dispute.ts";

export const disputeHandlers = [handle(processDisputeJob, processDispute)];
