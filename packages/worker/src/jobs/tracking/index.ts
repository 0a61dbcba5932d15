import { trackingSyncJob } from "@mw/shared/tracking";
import { handle } from "../../runtime/processor.ts";
import { trackingSync } from "./tracking-sync.ts";

export const trackingHandlers = [handle(trackingSyncJob, trackingSync)];
