import {
  auditSite,
  checkAllCertificates,
  checkSiteCertificate,
  inspectSitePage,
  purgeSiteCdn,
  syncSiteWordPress,
  takeScreenshot,
  type cdnPurgeJob,
  type indexCheckJob,
  type screenshotJob,
  type siteAuditJob,
  type siteSyncJob,
  type sslCheckAllJob,
  type sslCheckJob,
} from "@mw/domains/managed-sites";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

export async function syncSite(_job: Job, payload: PayloadOf<typeof siteSyncJob>, ctx: Pick<JobContext, "prisma" | "config" | "progress">) {
  return syncSiteWordPress(ctx, payload.site_id);
}

export async function runAudit(_job: Job, payload: PayloadOf<typeof siteAuditJob>, ctx: Pick<JobContext, "prisma" | "config" | "progress">) {
  return auditSite(ctx, payload.site_id);
}

export async function checkSsl(_job: Job, payload: PayloadOf<typeof sslCheckJob>, ctx: Pick<JobContext, "prisma" | "config" | "progress">) {
  return checkSiteCertificate(ctx, payload.site_id);
}

export async function checkAllSsl(_job: Job, _payload: PayloadOf<typeof sslCheckAllJob>, ctx: Pick<JobContext, "prisma" | "config" | "queues" | "log" | "progress">) {
  return checkAllCertificates(ctx);
}

export async function screenshot(job: Job, payload: PayloadOf<typeof screenshotJob>, ctx: Pick<JobContext, "prisma" | "config" | "storage" | "progress">) {
  return takeScreenshot(ctx, payload.site_id, job.id);
}

export async function purgeCdn(_job: Job, payload: PayloadOf<typeof cdnPurgeJob>, ctx: Pick<JobContext, "prisma" | "config" | "log" | "progress">) {
  return purgeSiteCdn(ctx, payload.site_id);
}

export async function checkIndexed(_job: Job, payload: PayloadOf<typeof indexCheckJob>, ctx: Pick<JobContext, "prisma" | "config" | "progress">) {
  return inspectSitePage(ctx, payload.site_id, payload.url);
}
