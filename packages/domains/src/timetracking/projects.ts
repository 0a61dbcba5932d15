import { truncateCodePoints } from "@mw/platform/text";
import { linkTimeProject, ticketWithOrganisation } from "../tickets/index.ts";
import { harvestClient, syncAuth, type TimeDeps } from "./settings.ts";

/**
 * Spec 2, 4.5 rule 4: a project for a ticket that has none, named from the
 * subject, under the organisation's client (created when missing), with the
 * ticket's budget hours. Safe to run again: a project of that name under the
 * client is reused, and the ticket is linked only while it has no project.
 */
export async function createProjectForTicket(deps: TimeDeps, ticketId: number) {
  const ticket = await ticketWithOrganisation(deps, ticketId);
  if (!ticket) return { skipped: "ticket_missing" };
  if (ticket.time_project_id !== null) return { skipped: "already_linked", project_id: ticket.time_project_id };
  const auth = await syncAuth(deps.options);
  const harvest = await harvestClient(deps);
  const clientName = truncateCodePoints(ticket.organisation?.name ?? ticket.client_name ?? "Unassigned clients", 255);
  const client = (await harvest.clients(auth)).find((candidate) => candidate.name === clientName) ?? (await harvest.createClient(auth, { name: clientName }));
  const name = truncateCodePoints(`#${ticket.number} ${ticket.subject}`, 255);
  const budget = ticket.budget_hours === null ? null : Number(ticket.budget_hours);
  const project =
    (await harvest.projects(auth, { client_id: client.id })).find((candidate) => candidate.name === name) ??
    (await harvest.createProject(auth, { client_id: client.id, name, is_billable: true, bill_by: "Project", budget_by: budget === null ? "none" : "project", budget }));
  return { project_id: project.id, client_id: client.id, linked: await linkTimeProject(deps, ticketId, project.id) };
}
