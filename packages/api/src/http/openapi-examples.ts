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
};
