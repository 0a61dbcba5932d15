import { sitesRetentionJob } from "@mw/domains/sites";
import { handle } from "../../runtime/processor.ts";
import { sitesRetention } from "./retention.ts";

export const siteHandlers = [handle(sitesRetentionJob, sitesRetention)];
