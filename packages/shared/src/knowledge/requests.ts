import { managedSiteExists } from "../dashboard/index.ts";
import type { PrismaClient, Queues } from "@mw/platform";
import { ticketsByNumber } from "../tickets/index.ts";
import { reembedTicketJob, reembedTicketJobId, syncSiteJob, syncSiteJobId } from "./jobs.ts";

/* Work staff ask of the index, queued as jobs once what it is about is known to exist. */

type Deps = { prisma: PrismaClient; queues: Queues };

/** vector_sync_site: one managed site's record embedded again. */
export async function requestSiteSync(deps: Deps, siteId: number): Promise<{ outcome: "queued"; jobId: string } | { outcome: "no_site" }> {
  if (!(await managedSiteExists(deps.prisma, siteId))) return { outcome: "no_site" };
  const job = await deps.queues.add(syncSiteJob, { site_id: siteId }, { jobId: syncSiteJobId(siteId, Date.now()) });
  return { outcome: "queued", jobId: job.id! };
}

/** reembed: the ticket of that number (`4512` finds 004512 too) embedded again whatever its content hash says. */
export async function requestTicketReembed(deps: Deps, ticketNumber: string): Promise<{ outcome: "queued"; jobId: string } | { outcome: "no_ticket" }> {
  const [ticket] = await ticketsByNumber(deps.prisma, [ticketNumber]);
  if (!ticket) return { outcome: "no_ticket" };
  const job = await deps.queues.add(reembedTicketJob, { ticket_id: ticket.id }, { jobId: reembedTicketJobId(ticket.id, Date.now()) });
  return { outcome: "queued", jobId: job.id! };
}
