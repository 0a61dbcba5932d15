import type { TestApi } from "../support/api.ts";
import { newTicketId } from "../support/tickets.ts";
import { until } from "../support/wait.ts";

/** A mirrored ticket with one client message; answers its id and number. */
export async function mirrorTicket(api: TestApi, subject: string, body: string, extra: { organisation_id?: number; opened_at?: Date; ticket_summary?: string } = {}): Promise<{ id: number; number: string }> {
  const id = newTicketId();
  const number = String(id).padStart(6, "0");
  await api.ctx.prisma.ticket.create({
    data: { id, number, subject, status: "open", opened_at: extra.opened_at ?? new Date(), organisation_id: extra.organisation_id, ticket_summary: extra.ticket_summary, entries: { create: { id, type: "M", poster_name: "Ann Lee", poster_type: "User", body, format: "text", posted_at: new Date() } } },
  });
  return { id, number };
}

export async function ajax(api: TestApi, method: string, path: string, authorization: string, body?: unknown) {
  const res = await fetch(`${api.url}/scp/ajax.php/ai-assistant/${path}`, {
    method,
    headers: { authorization, ...(body !== undefined && { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { success: boolean; data: ReturnType<typeof JSON.parse> } };
}

/**
 * Keeps the workers other test files start (they serve every queue, and the
 * embeddings schedule fires at once) from embedding into this file's ledger
 * while it runs: the knowledge queue paused, and any job still under way finished.
 * Answers the function that resumes it.
 */
export async function pauseKnowledgeQueue(api: TestApi): Promise<() => Promise<void>> {
  const queue = api.ctx.queues.get("knowledge");
  await queue.pause();
  // A job is under way while its worker renews its lock; a killed worker's job stays "active" without one.
  const running = async () => {
    const active = await queue.getActive();
    const locks = await Promise.all(active.map((job) => api.ctx.redis.exists(queue.toKey(`${job.id}:lock`))));
    return locks.some(Boolean);
  };
  await until(async () => !(await running()), () => "knowledge jobs of other test files' workers to finish", 45_000);
  return () => queue.resume();
}
