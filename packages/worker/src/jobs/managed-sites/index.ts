import { cdnPurgeJob, indexCheckJob, screenshotJob, siteAuditJob, siteSyncJob, sslCheckAllJob, sslCheckJob } from "@mw/domains/managed-sites";
import { handle } from "../../runtime/processor.ts";
import { checkAllSsl, checkIndexed, checkSsl, purgeCdn, runAudit, screenshot, syncSite } from "./site-jobs.ts";

export const managedSiteHandlers = [
  handle(siteSyncJob, syncSite),
  handle(siteAuditJob, runAudit),
  handle(sslCheckJob, checkSsl),
  handle(sslCheckAllJob, checkAllSsl),
  handle(screenshotJob, screenshot),
  handle(cdnPurgeJob, purgeCdn),
  handle(indexCheckJob, checkIndexed),
];
