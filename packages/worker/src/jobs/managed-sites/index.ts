import { cdnPurgeJob, indexCheckJob, screenshotJob, siteAuditJob, siteSyncJob, sslCheckAllJob, sslCheckJob } from "@mw/domains/managed-sites";
import { handle } from "../../runtime/processor.ts";
import { runAudit } from "./audit.ts";
import { purgeCdn } from "./cdn-purge.ts";
import { checkIndexed } from "./index-check.ts";
import { takeScreenshot } from "./screenshot.ts";
import { checkAllSsl, checkSsl } from "./ssl.ts";
import { syncSite } from "./sync.ts";

export const managedSiteHandlers = [
  handle(siteSyncJob, syncSite),
  handle(siteAuditJob, runAudit),
  handle(sslCheckJob, checkSsl),
  handle(sslCheckAllJob, checkAllSsl),
  handle(screenshotJob, takeScreenshot),
  handle(cdnPurgeJob, purgeCdn),
  handle(indexCheckJob, checkIndexed),
];
