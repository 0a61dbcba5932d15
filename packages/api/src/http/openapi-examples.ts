/**
 * One worked example per operation for the OpenAPI document: a request body
 * (where the operation takes one) and its successful answer, keyed by method
 * and route path. test/platform/openapi-examples.test.ts checks that every
 * operation has one and that each parses with the operation's own schemas.
 */
export interface OperationExample {
  request?: unknown;
  /** The successful answer; `status` when it is not the route's default success status. */
  response: unknown;
  status?: number;
  /** For answers that are not JSON (an HTML snippet, a CSV file). */
  mediaType?: string;
}

const at = "2026-11-20 10:15:00";
const page = { total: 1, page: 1, per_page: 20, total_pages: 1 };
const aiSettings = {
  ai_api_key_set: true,
  ai_security_key_set: false,
  ai_model: "gemini-2.5-flash",
  ai_urgency_model: "gemini-2.5-flash",
  ai_assistant_model: "gemini-2.5-flash",
  ai_embedding_model: "gemini-embedding-001",
  ai_enabled_sources: ["ticket", "site", "wiki", "docs", "brand"],
  ai_max_context_tickets: 8,
  ai_chatbot_name: "Support Assistant",
  ai_vector_api_key_set: false,
  ai_vector_host: "",
  ai_rate_limit: 60,
  ai_rate_window: 60,
  ai_cache_ttl: 3600,
  ai_max_retries: 3,
  urgency_criteria: "Start near 20 for a routine request and adjust:\n- production down: +30 to +40\n...",
  urgency_max_per_run: 2,
  urgency_gate_seconds: 600,
};
const signalTicket = {
  id: 123,
  number: "004512",
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
};
const snapshotRow = {
  id: 31,
  ticket_id: 123,
  ticket_number: "004512",
  urgency: "CRITICAL",
  urgency_percentage: 90,
  estimated_hours: 3.5,
  summary: "<p>Checkout returns a 500 error for every customer since 9am.</p>",
  timeline: "<ul><li>09:00 client reports the outage</li><li>09:20 staff confirms</li></ul><p>Respond within 1 hour</p>",
  suggested_title: "Checkout returns 500 for all customers",
  model_used: "gemini-2.5-flash",
  created: "2026-11-20T09:21:04.120Z",
};
const timeEntry = { entry_id: 88001, project_id: 4411, task: { id: 501, name: "Support" }, hours: 0, notes: null as string | null, is_running: true, spent_date: "2026-11-25" };
const notificationRow = { id: 57, kind: "critical", ticket_id: 123, title: "CRITICAL: ticket #004512", body: "Checkout returns 500 for all customers (90%)", read: false, created: "2026-11-20T09:21:05.002Z" };

export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  "POST /auth/login": {
    request: { login: "admin", password: "correct horse battery" },
    response: { success: true, nonce: "5f0c9b7e2d", user: { id: 1, login: "admin", capabilities: ["manage_middleware", "manage_options"] } },
  },
  "POST /auth/logout": { response: { success: true } },
  "GET /auth/me": { response: { id: 1, login: "admin", capabilities: ["manage_middleware", "manage_options"], via: "application_password" } },
  "POST /queue/:id/process": { response: { success: true, job: { id: "order-export.812", queue: "orders", state: "waiting" } } },
  "GET /queue": {
    response: {
      jobs: [
        {
          id: "order-export.812",
          queue: "orders",
          job_type: "order_export",
          status: "failed",
          priority: 0,
          site_id: 1,
          description: "Export order 100045 of site 1 (Main shop) to the ERP",
          attempts_made: 8,
          progress: 0,
          failed_reason: "ERP answered HTTP 503: The service is temporarily unavailable. Please try again later.",
          created_at: at,
          started_at: "2026-11-20 10:24:40",
          completed_at: "2026-11-20 10:24:41",
          locked_by: null,
        },
      ],
      ...page,
    },
  },
  "POST /ai/rewrite": {
    request: { text: "hi, we fixed the checkout , it should work now.", instructions: "Make it friendly and professional." },
    response: { success: true, rewritten_text: "Hello! We have fixed the checkout, and it should be working again now.", engine: "model", model: "gemini-2.5-flash" },
  },
  "POST /ai/ticket-urgency": {
    request: { subject: "Checkout down", body: "Since 9am no customer can pay: checkout shows a 500 error. We are losing orders.", client_name: "ACME", is_vip: true },
    response: {
      success: true,
      urgency: {
        score: 95,
        level: "CRITICAL",
        summary: "Checkout fails with a 500 error for every customer since 9am.",
        reasoning: "Production down +35, revenue impact +25, multiple users +15. Modifiers: VIP client +10.",
        timeline: "Respond within 1 hour",
        suggested_title: "Checkout returns 500 for all customers",
      },
      cached: false,
      engine: "model",
      model: "gemini-2.5-flash",
    },
  },
  "POST /ai/parse-email-reply": {
    request: { email_body: "Thanks, that fixed it.\n\nOn Tue, Nov 17, 2026 at 10:02 AM Support <support@example.com> wrote:\n> Please clear your cache." },
    response: { success: true, parsed_reply: "Thanks, that fixed it.", engine: "rules" },
  },
  "GET /ai/settings": { response: { success: true, settings: aiSettings } },
  "PUT /ai/settings": {
    request: { ai_model: "gemini-2.5-pro", ai_rate_limit: 120, ai_security_key: "<shared secret>" },
    response: { success: true, settings: { ...aiSettings, ai_model: "gemini-2.5-pro", ai_rate_limit: 120, ai_security_key_set: true } },
  },
  "POST /tickets/v1/signals": {
    request: {
      signal: "threadentry.created",
      ticket: signalTicket,
      entry: { id: 991, type: "M", poster_name: "Ann Lee", poster_type: "User", staff_id: null, is_internal: false, body: "Since 9am no customer can pay.", format: "text", created: "2026-11-20T09:00:00Z" },
    },
    status: 202,
    response: { success: true, signal: "threadentry.created", changed: true, queued: true },
  },
  "GET /tickets/v1/snapshots": { response: { snapshots: [snapshotRow], ...page } },
  "GET /tickets/v1/tickets/:number": {
    response: {
      id: 123,
      number: "004512",
      subject: "Checkout down",
      status: "open",
      organisation: { id: 7, name: "ACME" },
      client_name: "Ann Lee",
      is_vip: false,
      customer_type: "retainer",
      department_id: 2,
      assigned_staff_id: 9,
      time_project_id: null,
      budget_hours: 10,
      quoted_hours: 8,
      hours_used: 0,
      locked: false,
      ai_urgency: "CRITICAL",
      ai_urgency_percentage: 90,
      ai_estimated_hours: 3.5,
      ticket_summary: snapshotRow.summary,
      ai_timeline: snapshotRow.timeline,
      ai_suggested_title: snapshotRow.suggested_title,
      urgency_queue: { state: "processed", processed: true, failures: 0, queued_at: "2026-11-20T09:20:11.500Z", analysed_at: "2026-11-20T09:21:02.010Z", last_error: null },
      history: [
        { id: 12, event: "critical_alert", channel: "email", detail: { sent_to: ["pm@agency.example"] }, sent_at: "2026-11-20T09:21:06.300Z", created: "2026-11-20T09:21:04.120Z" },
        { id: 11, event: "analysis", channel: null, detail: { urgency: "CRITICAL", urgency_percentage: 90, previous_percentage: 60, capped: false, model_used: "gemini-2.5-flash", entries: 3 }, sent_at: null, created: "2026-11-20T09:21:04.120Z" },
      ],
    },
  },
  "GET /tickets/v1/changes": {
    response: {
      changes: [
        {
          cursor: 1042,
          ticket_id: 123,
          ticket_number: "004512",
          fields: {
            "ai-urgency": "CRITICAL",
            "ai-urgency-percentage": 90,
            "ai-estimated-hours": 3.5,
            "ticket-summary": snapshotRow.summary,
            "ai-timeline": snapshotRow.timeline,
            "ai-suggested-title": snapshotRow.suggested_title,
            "hours-used": 1.25,
            locked: false,
          },
        },
      ],
      next_cursor: 1042,
    },
  },
  "GET /tickets/v1/urgency-queue": {
    response: {
      counts: { pending: 1, processed: 40, skipped: 1 },
      entries: [{ ticket_id: 140, ticket_number: "004530", state: "skipped", processed: false, failures: 5, queued_at: "2026-11-20T08:00:00.000Z", analysed_at: null, last_error: "AI request failed after retries and the fallback models: AI provider overloaded" }],
      page: 1,
      per_page: 20,
    },
  },
  "GET /notifications/stream": {
    mediaType: "text/event-stream",
    response: `retry: 5000\nevent: unread\ndata: {"unread":1}\n\nid: 57\nevent: notification\ndata: ${JSON.stringify(notificationRow)}\n\n`,
  },
  "GET /notifications": { response: { success: true, data: { unread: 1, notifications: [notificationRow] } } },
  "POST /notifications/read": { request: { ids: [57] }, response: { success: true, data: { marked: 1 } } },
  "GET /timetracking/status": { response: { success: true, data: { connected: true, user: { id: 1001, name: "Sam Staff", email: "sam@agency.example" }, account_id: 424242, token_expires_at: "2026-12-09T09:00:00.000Z" } } },
  "GET /timetracking/connect-url": { response: { success: true, data: { url: "https://id.getharvest.com/oauth2/authorize?client_id=<client id>&response_type=code&state=<state>&redirect_uri=https%3A%2F%2Fdesk.example%2Fscp%2Fajax.php%2Ftimetracking%2Fcallback", expires_in: 600 } } },
  "GET /timetracking/callback": { mediaType: "text/html", response: "<!doctype html><html lang=\"en\">...<h1>Connected to Harvest</h1><p>Connected as Sam Staff (account Agency). You can close this window and return to the ticket.</p>...</html>" },
  "POST /timetracking/disconnect": { response: { success: true, data: { disconnected: true } } },
  "GET /timetracking/tasks/:project_id": { response: { success: true, data: { tasks: [{ id: 501, name: "Support", billable: true }, { id: 502, name: "Development", billable: true }], default_task_id: 501 } } },
  "POST /timetracking/timer/start": { request: { ticket_id: 123, task_id: 501 }, response: { success: true, data: { started: true, ...timeEntry, hours: 0, notes: null, is_running: true } } },
  "POST /timetracking/timer/:entry_id/stop": { response: { success: true, data: { ...timeEntry, hours: 0.75, is_running: false } } },
  "GET /timetracking/timer/:project_id": { response: { success: true, data: { running: true, ...timeEntry, hours: 0, is_running: true } } },
  "PATCH /timetracking/timer/:entry_id": { request: { notes: "Fix checkout 500 error", ai_optimized: true }, response: { success: true, data: { ...timeEntry, hours: 0, is_running: true, notes: "Fix checkout 500 error" } } },
  "POST /timetracking/submit": { request: { ticket_id: 123, entry_id: 88001, notes: "Fix checkout 500 error", thread_entry_id: 992 }, response: { success: true, data: { ...timeEntry, hours: 0.75, notes: "Fix checkout 500 error", is_running: false } } },
  "POST /timetracking/unlock/:ticket_id": { response: { success: true, data: { ticket_id: 123, locked: false } } },
  "GET /timetracking/timeline/:ticket_id": {
    response: {
      success: true,
      data: {
        items: [
          { type: "entry", at: "2026-11-24T00:00:00.000Z", entry_id: 88001, user_id: 1001, hours: 6.5, notes: "Checkout fix" },
          { type: "locked", at: "2026-11-25T09:15:02.113Z", staff_id: 5, hours_used: 13, budget: 10 },
          { type: "unlocked", at: "2026-11-25T10:02:40.551Z", staff_id: 5, hours_used: 13, budget: 10 },
        ],
      },
    },
  },
  "POST /timetracking/optimize-note": { request: { text: "Hi, I looked into the checkout error, cleared the cache and redeployed the payment plugin." }, response: { success: true, data: { note: "Checkout error: cache cleared, plugin redeployed", engine: "model", model: "gemini-2.5-flash" } } },
  "POST /platform/v1/time_sync": { response: { success: true, message: "Synced 12 clients, 40 projects, 6 tasks and 2318 time entries.", data: { clients: 12, projects: 40, tasks: 6, time_entries: 2318 } } },
  "POST /platform/v1/update_milestones": { response: { success: true, alerts_sent: 2 } },
  "POST /platform/v1/update_milestones_tasks": { response: { success: true, alerts_sent: 0 } },
};
