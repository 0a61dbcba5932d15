import type { TestApi } from "./api.ts";

export const SECURITY_KEY = "ticket-system-shared-key-51c2-7e04a9";

let nextEntryId = Date.now() % 1_000_000_000;
/** A thread entry id no other test in this run uses. */
export function newEntryId(): number {
  nextEntryId += 1;
  return nextEntryId;
}

/** The ticket of design 10.1's signal body; `id` picks the osTicket id (and the number). */
export function ticketBody(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    number: String(id).padStart(6, "0"),
    subject: "Checkout down",
    status: "open",
    organisation: { id: 7, name: "ACME" },
    user: { name: "Ann Lee", email: "ann@acme.example" },
    is_vip: false,
    customer_type: "retainer",
    department: { id: 2, name: "Support", manager_staff_id: 4 },
    assigned_staff_id: 9,
    created: "2026-11-20T09:00:00Z",
    fields: { time_project_id: null, budget_hours: 10, quoted_hours: 8 },
    ...overrides,
  };
}

/** A `threadentry.created` signal: M by the client, R or N by staff member 9. */
export function entrySignal(ticketId: number, type: "M" | "R" | "N", text: string, overrides: Record<string, unknown> = {}) {
  const staff = type !== "M";
  return {
    signal: "threadentry.created",
    ticket: ticketBody(ticketId),
    entry: {
      id: newEntryId(),
      type,
      poster_name: staff ? "Sam Staff" : "Ann Lee",
      poster_type: staff ? "Staff" : "User",
      staff_id: staff ? 9 : null,
      is_internal: type === "N",
      body: text,
      format: "text",
      created: new Date().toISOString(),
      ...overrides,
    },
  };
}

export async function postSignal(api: TestApi, body: unknown, key = SECURITY_KEY) {
  const res = await fetch(`${api.url}/tickets/v1/signals`, { method: "POST", headers: { "content-type": "application/json", "ai-security-key": key }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The model's JSON answer of an analysis run (spec 2, 4.7 rule 4). */
export function analysisAnswer(percentage: number, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    urgency_percentage: percentage,
    workaround_available: false,
    estimated_hours: 3.5,
    summary: "<p>Checkout fails for every customer.</p><script>alert(1)</script>",
    timeline: "<ul><li>09:00 reported</li></ul>",
    suggested_title: "Checkout returns 500 for all customers",
    ...overrides,
  });
}

let nextTicketId = (Date.now() % 100_000) * 100;
/** A ticket id (and number) no other test in this run uses. */
export function newTicketId(): number {
  nextTicketId += 1;
  return nextTicketId;
}
