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
const billing = { first_name: "Ada", last_name: "Lovelace", address1: "1 Analytical Way", city: "Springfield", state: "IL", postal_code: "62701", country: "US", email: "ada@example.com", phone: "555-0100" };
const siteBody = {
  name: "Main shop",
  platform: "storefront_a",
  site_url: "https://store-abc123.mybigcommerce.com",
  api_key: "<client id>",
  api_secret: "<access token>",
  orders_sync: true,
  inventory_sync: true,
  tracking_sync: true,
};
const siteRow = {
  id: 1,
  name: "Main shop",
  platform: "storefront_a",
  site_url: "https://store-abc123.mybigcommerce.com",
  is_active: true,
  orders_sync: true,
  inventory_sync: true,
  tracking_sync: true,
  tracking_enabled: true,
};
const apiKey = { id: 4, label: "ERP", key_prefix: "mwk_8Glfzdpi", created_at: at, last_used_at: null, revoked_at: null };
const merchant = { id: 2, mid: "12345", name: "Main MID", created_at: at, updated_at: at };
const carrierMapping = { id: 6, platform: "storefront_a", erp_carrier_code: "UPS", platform_carrier_code: "ups" };
const item = { id: 17, sku: "TEE-BLK-M", name: "T-shirt, black, M", price: 19.9, stock: 40, updated_at: at };
const review = { id: 3, author: "Grace H.", rating: 5, title: "Fits well", body: "Soft and true to size.", date_published: "2026-11-18", created_at: at };
const orderRow = {
  id: 812,
  site: 1,
  site_name: "Main shop",
  number: "100045",
  trans_id: "TX-778899",
  erp_sales_order_number: "SO-100001",
  dateadded: "2026-11-20 00:00:00",
  payment_method: "pay_1",
  imported: 1,
  verified: 1,
  ship_status: 0,
  fully_import_from_website: 1,
  pay_1: "1",
  pay_2: "0",
  pay_3: "0",
  pay_4: "0",
  pay_5: "0",
  pay_6: "0",
};
const linkage = {
  id: 31,
  case_id: "CB-2026-0042",
  case_number: "N-0042",
  mid: "12345",
  gateway_transaction_id: "10458823311",
  gateway_order_id: "100045",
  order_number: "100045",
  match_strategy: "auth_code_date",
  amount: 49.9,
  auth_code: "A1B2C3",
  arn: null,
  transaction_date: "2026-11-02",
  reason_code: "10.4",
  reason_desc: null,
  dispute_status: null,
  linked_at: at,
  created_at: at,
};
const chargeback = {
  id: 12,
  case_id: "CB-2026-0042",
  mid: "12345",
  gateway_transaction_id: "10458823311",
  order_number: "100045",
  amount: 49.9,
  reason_code: "10.4",
  reason_desc: null,
  fraud_submitted_at: at,
  created_at: at,
};
const report = {
  id: 9,
  type: "order-intake-daily",
  key: "order-intake-daily:2026-11-19",
  from: "2026-11-19",
  to: "2026-11-19",
  status: "completed",
  row_count: 42,
  job_id: "report.9.1795535133854",
  error: null,
  created_at: at,
  started_at: at,
  finished_at: "2026-11-20 10:15:02",
};
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
const queued = { success: true, queued: [{ site_id: 1, job_id: "tracking-sync.1.manual.1795535133854" }] };

export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  "POST /webhooks/acquirer": {
    request: {
      event_type: "dispute.created",
      timestamp: "2026-11-20T10:15:00Z",
      account_id: "12345",
      api_response: JSON.stringify({ case_id: "CB-2026-0042", case_number: "N-0042" }),
      request_payload: JSON.stringify({ mid: "0012345", auth_code: "A1B2C3", transaction_date: "2026-11-02", amount: "49.90", card_number: "411111******1111", reason_code: "10.4" }),
    },
    response: { success: true, message: "Webhook received and queued for processing.", webhook_id: 1 },
    status: 202,
  },
  "POST /webhooks/products/:site_id": {
    request: { scope: "store/product/updated", store_id: "1025646", data: { type: "product", id: 205 }, hash: "3f2a9c1e", created_at: 1795535133, producer: "stores/abc123" },
    response: { success: true, message: "Webhook received; the product's stock refresh is queued.", webhook_id: 77 },
    status: 202,
  },
  "POST /external/orders": {
    request: {
      order_number: "100045",
      date: "2026-11-20",
      payment_method: "pay_1",
      transaction_id: "TX-778899",
      billing_address: billing,
      line_items: [
        { line_number: 1, sku: "TEE-BLK-M", quantity: 2, unit_price: 19.9 },
        { line_number: 2, sku: "SHIPPING", quantity: 1, unit_price: 4.95 },
      ],
    },
    response: { success: true, order_number: "100045", message: "Order created." },
    status: 201,
  },
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
  "GET /sites": {
    response: [
      {
        ...siteRow,
        order_last_run: at,
        inventory_last_run: "2026-11-20 10:00:03",
        tracking_last_run: "2026-11-20 10:00:05",
      },
    ],
  },
  "POST /sites": { request: siteBody, response: { id: 1, message: "Site created." } },
  "GET /sites/:id": {
    response: {
      ...siteRow,
      api_credentials: { client_id: "<client id>", access_token: "********" },
      health_check_url: null,
      status_filters: "9,3",
      auto_complete: true,
      send_customer_email: true,
      channel_filter: null,
      out_of_stock_threshold: 0,
      fraud_team_id: null,
      fraud_api_key_set: false,
      webhook_secret_set: true,
      api_base_url: null,
      order_volume_window_hours: 24,
      order_volume_min: 1,
    },
  },
  "PUT /sites/:id": { request: { tracking_sync: false, status_filters: "9,3,11", order_volume_min: 5 }, response: { success: true, message: "Site updated." } },
  "DELETE /sites/:id": { response: { success: true, message: "Site deleted." } },
  "POST /sites/:id/toggle-status": { response: { success: true, message: "Site deactivated.", is_active: false } },
  "POST /sites/:id/test-connection": {
    response: { success: true, message: "Connection successful.", details: { platform: "storefront_a", store_name: "Main shop", api_version: "v2/v3" } },
  },
  "GET /carrier-mappings": { response: { carrier_mappings: [carrierMapping], ...page } },
  "PUT /carrier-mappings": {
    request: { platform: "storefront_a", erp_carrier_code: "UPS", platform_carrier_code: "ups" },
    response: { success: true, message: "Carrier mapping saved.", carrier_mapping: carrierMapping },
  },
  "DELETE /carrier-mappings/:id": { response: { success: true, message: "Carrier mapping deleted." } },
  "POST /sites/:id/api-keys": {
    request: { label: "ERP" },
    response: { ...apiKey, key: "mwk_8Glfzdpiwrx3qQSWqruOxBvXd8OzujUvNFOvysJfXCA", message: "Store this key now: it cannot be shown again." },
  },
  "GET /sites/:id/api-keys": { response: { api_keys: [{ ...apiKey, last_used_at: at }], ...page } },
  "DELETE /sites/:id/api-keys/:keyId": { response: { success: true, message: "API key revoked." } },
  "POST /items": {
    request: [
      { sku: "TEE-BLK-M", name: "T-shirt, black, M", price: 19.9, stock: 40 },
      { sku: "MUG-LOGO", name: "Mug with logo", price: 12.5, stock: 25 },
    ],
    response: { success: true, created: 1, updated: 1 },
  },
  "GET /items": { response: { items: [item], ...page } },
  "GET /items/:id/schema-markup": {
    mediaType: "text/html",
    response: '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"T-shirt, black, M","sku":"TEE-BLK-M"}</script>',
  },
  "POST /items/:id/reviews": {
    request: { author: "Grace H.", rating: 5, title: "Fits well", body: "Soft and true to size.", date_published: "2026-11-18" },
    response: { id: 3, message: "Review added." },
  },
  "GET /items/:id/reviews": { response: { reviews: [review], ...page } },
  "DELETE /items/:id/reviews/:reviewId": { response: { success: true, message: "Review deleted." } },
  "GET /orders": { response: { orders: [orderRow], ...page } },
  "GET /orders/:id": {
    response: {
      ...orderRow,
      contact_id: 27111,
      shipping_agent_code: "FEDEX",
      shipping_agent_service: "GROUND_HOME_DELIVERY",
      imported_at: "2026-11-20 10:15:03",
      created_at: at,
      line_items: [
        { id: 4411, line: 1, sku: "TEE-BLK-M", quantity: 2, price: 19.9, coupon_code: null, discount_amount: 0, weight: 0 },
        { id: 4412, line: 2, sku: "SHIPPING", quantity: 1, price: 4.95, coupon_code: null, discount_amount: 0, weight: 0 },
      ],
      addresses: [
        { id: 1622, type: 1, first_name: "Ada", last_name: "Lovelace", company: null, address1: "1 Analytical Way", address2: null, city: "Springfield", state: "IL", postal_code: "62701", country: "US", phone: "555-0100", email: "ada@example.com" },
        { id: 1623, type: 0, first_name: "Ada", last_name: "Lovelace", company: null, address1: "1 Analytical Way", address2: null, city: "Springfield", state: "IL", postal_code: "62701", country: "US", phone: "555-0100", email: "ada@example.com" },
      ],
    },
  },
  "GET /stats": {
    response: {
      sites: { total: 2, active: 2, storefront_a: 1, storefront_b: 1 },
      orders: { pending_insert: 3, pending_verify: 1, imported_today: 57 },
      errors: { count: 1, recent: [{ order_number: "100051", message: "ERP answered HTTP 422: Item 'MUG-OLD' does not exist.", created_at: at }] },
    },
  },
  "POST /merchant-accounts": { request: { mid: "12345", security_key: "<gateway security key>", name: "Main MID" }, response: merchant },
  "GET /merchant-accounts": { response: { merchant_accounts: [merchant], ...page } },
  "PUT /merchant-accounts/:id": { request: { name: "Main MID (US)" }, response: { ...merchant, name: "Main MID (US)" } },
  "DELETE /merchant-accounts/:id": { response: { success: true, message: "Merchant account deleted." } },
  "POST /disputes/replay": {
    request: { case_id: "CB-2026-0042" },
    response: { success: true, webhook_id: 1, job: { id: "dispute.acquirer_case_CB-2026-0042.replay.1795535133854", queue: "disputes", state: "waiting" } },
  },
  "GET /disputes/linkages": { response: { linkages: [linkage], ...page } },
  "GET /disputes/linkages/:id": { response: { ...linkage, acquirer_data: { case_id: "CB-2026-0042", amount: "49.90" }, gateway_data: { transaction_id: "10458823311", condition: "complete" } } },
  "GET /disputes/chargebacks": { response: { chargebacks: [chargeback], ...page } },
  "GET /disputes/chargebacks/:id": { response: { ...chargeback, fraud_response: { id: "cb_8812" }, acquirer_data: { case_id: "CB-2026-0042" }, action_log: [] } },
  "POST /tracking/sync/:site_id": { response: queued },
  "POST /tracking/sync-all": { response: { success: true, queued: [...queued.queued, { site_id: 2, job_id: "tracking-sync.2.manual.1795535133854" }] } },
  "GET /tracking/status/:site_id": {
    response: {
      site_id: 1,
      enabled: true,
      last_run: {
        job_id: "repeat:tracking-sync.1:1795535100000",
        status: "completed",
        started_at: "2026-11-20 10:00:00",
        finished_at: "2026-11-20 10:00:05",
        counts: { orders: 12, shipments_created: 4, already_posted: 3, skipped_carrier: 1, skipped_invalid: 0, unmapped_carrier: 0, not_linked: 1, not_exported: 1, awaiting_shipment: 2, claimed_by_other_run: 0, completed: 4, errors: 0 },
        error: null,
      },
      next_run: "2026-11-20 10:30:00",
      last_error: null,
    },
  },
  "POST /testing/inventory/sync": {
    request: { site_id: "all" },
    response: { success: true, queued: [{ site_id: 1, job_id: "inventory-sync.1.test.1795535133854" }], failed: [{ site_id: 2, message: "Inventory sync is off for this site." }] },
  },
  "POST /reports": {
    request: { type: "order-intake-daily", date: "2026-11-19" },
    response: { success: true, report_id: 9, job_id: "report.9.1795535133854", key: "order-intake-daily:2026-11-19", message: "Report queued." },
  },
  "GET /reports": { response: { reports: [report], ...page } },
  "GET /reports/:id": { response: report },
  "GET /reports/:id/download": { mediaType: "text/csv", response: "order_number,site,dateadded,total\n100045,Main shop,2026-11-19 14:02:11,44.75\n" },
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
  "POST /platform/v1/trigger-order-volume-tests": {
    response: {
      success: true,
      results: [
        { site: "Main shop", status: "SUCCESS", message: "Order volume is normal" },
        { site: "Outlet", status: "FAILURE", message: "Order volume fell below half of the usual level for this weekday" },
      ],
    },
  },
  "GET /image": { response: { image: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA...", date_of_sealing: "2026-03-14 15:30:00" } },
  "GET /image-random": { response: { image: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA...", date_of_sealing: "2025-08-02 09:12:44" } },
};
