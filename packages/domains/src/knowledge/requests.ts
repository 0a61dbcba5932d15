import { managedSiteExists } from "../managed-sites/index.ts";
import type { PrismaClient } from "@mw/platform/database";
import { jobRef, type Queues } from "@mw/platform/queues";
import { ticketsByNumber } from "../tickets/index.ts";
import { reembedTicketJob, reembedTicketJobId, reembedTicketKey, syncSiteJob, syncSiteJobId } from "./jobs.ts";

/* Work staff ask of the index, queued as jobs once what it is about is known to exist. */

type Deps = { prisma: PrismaClient; queues: Queues };

/** vector_sync_site: one managed site's record embedded again. */
export async function requestSiteSync(deps: Deps, siteId: number): Promise<{ outcome: "queued"; jobId: string } | { outcome: "no_site" }> {
  if (!(await managedSiteExists(deps.prisma, siteId))) return { outcome: "no_site" };
  const job = await deps.queues.add(syncSiteJob, { site_id: siteId }, { jobId: syncSiteJobId(siteId, Date.now()) });
  return { outcome: "queued", jobId: job.id! };
}

/**
 * What a reembed did, in the shape every bulk trigger answers with
 * (docs/lifecycle.md): the ticket queued, or skipped with why. `jobId` is the
 * job that re-embeds it: this call's, or the one in progress that made it skip.
 */
type ReembedOutcome =
  | { outcome: "no_ticket" }
  | { outcome: "requested"; jobId: string; queued: { ticket_number: string; job_id: string }[]; skipped: { ticket_number: string; reason: string }[] };

/**
 * reembed: the ticket of that number (`4512` finds 004512 too) embedded again
 * whatever its content hash says. A re-embed of it still waiting or running is
 * the answer instead (BullMQ deduplication, released when that job ends): a
 * second would embed the same text again.
 */
export async function requestTicketReembed(deps: Deps, ticketNumber: string): Promise<ReembedOutcome> {
  const [ticket] = await ticketsByNumber(deps.prisma, [ticketNumber]);
  if (!ticket) return { outcome: "no_ticket" };
  const id = reembedTicketJobId(ticket.id, Date.now());
  const job = await deps.queues.add(reembedTicketJob, { ticket_id: ticket.id }, { jobId: id, deduplication: { id: reembedTicketKey(ticket.id) } });
  const jobId = jobRef(reembedTicketJob.queue, job.id!);
  if (job.id === id) return { outcome: "requested", jobId, queued: [{ ticket_number: ticket.number, job_id: jobId }], skipped: [] };
  const state = await deps.queues.get(reembedTicketJob.queue).getJobState(job.id!);
  return { outcome: "requested", jobId, queued: [], skipped: [{ ticket_number: ticket.number, reason: `already in progress: job ${jobId} is ${state}` }] };
}
