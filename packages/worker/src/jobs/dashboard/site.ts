import { AppError } from "@mw/platform";
import type { JobContext } from "../../runtime/processor.ts";

/** The managed site a dashboard job is about; gone since it was queued, the job fails for good and says so. */
export async function managedSite(ctx: JobContext, siteId: number) {
  const site = await ctx.prisma.managedSite.findUnique({ where: { id: siteId } });
  if (!site) throw AppError.permanent(`Managed site ${siteId} does not exist (deleted since the job was queued).`, "site_not_found");
  return site;
}
