import { formatDateTime } from "@mw/platform";
import {
  getChargeback,
  DISPUTE_OUTCOMES,
  DISPUTE_STATE_FILTERS,
  DISPUTE_STATES,
  getLinkage,
  listChargebacks,
  listDisputes,
  listLinkages,
  processDisputeJob,
  replayDispute,
  type Chargeback,
  type DisputeLinkage,
  type DisputeOutcome,
} from "@mw/domains/disputes";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";
import { idParams } from "../../http/route-schemas.ts";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD").refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), "not a date");

const listQuery = pageQuery.extend({
  case_id: z.string().trim().min(1).max(64).optional(),
  order_number: z.string().trim().min(1).max(20).optional(),
  from: day.optional().describe("first day, inclusive (UTC)"),
  to: day.optional().describe("last day, inclusive (UTC)"),
});

/** Stored JSON text back as JSON; text that is not JSON stays text. */
function json(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const linkageRow = z.object({
  id: z.number().int(),
  case_id: z.string(),
  case_number: z.string().nullable(),
  mid: z.string(),
  gateway_transaction_id: z.string(),
  gateway_order_id: z.string().nullable(),
  order_number: z.string().nullable(),
  match_strategy: z.string(),
  amount: z.number().nullable(),
  auth_code: z.string().nullable(),
  arn: z.string().nullable(),
  transaction_date: z.string().nullable(),
  reason_code: z.string().nullable(),
  reason_desc: z.string().nullable(),
  dispute_status: z.string().nullable(),
  linked_at: z.string(),
  created_at: z.string(),
});

const chargebackRow = z.object({
  id: z.number().int(),
  case_id: z.string(),
  mid: z.string(),
  gateway_transaction_id: z.string().nullable(),
  order_number: z.string().nullable(),
  amount: z.number().nullable(),
  reason_code: z.string().nullable(),
  reason_desc: z.string().nullable(),
  fraud_submitted_at: z.string().nullable(),
  created_at: z.string(),
});

const at = "2026-11-20 10:15:00";
const pageExample = { total: 1, page: 1, per_page: 20, total_pages: 1 };
const linkageExample = {
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
const chargebackExample = {
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

function linkageView(row: DisputeLinkage): z.infer<typeof linkageRow> {
  return {
    id: row.id,
    case_id: row.case_id,
    case_number: row.case_number,
    mid: row.mid,
    gateway_transaction_id: row.gateway_transaction_id,
    gateway_order_id: row.gateway_order_id,
    order_number: row.order_number,
    match_strategy: row.match_strategy,
    amount: row.amount === null ? null : Number(row.amount),
    auth_code: row.auth_code,
    arn: row.arn,
    transaction_date: row.transaction_date ? row.transaction_date.toISOString().slice(0, 10) : null,
    reason_code: row.reason_code,
    reason_desc: row.reason_desc,
    dispute_status: row.dispute_status,
    linked_at: formatDateTime(row.linked_at)!,
    created_at: formatDateTime(row.created_at)!,
  };
}

function chargebackView(row: Chargeback): z.infer<typeof chargebackRow> {
  return {
    id: row.id,
    case_id: row.case_id,
    mid: row.mid,
    gateway_transaction_id: row.gateway_transaction_id,
    order_number: row.order_number,
    amount: row.amount === null ? null : Number(row.amount),
    reason_code: row.reason_code,
    reason_desc: row.reason_desc,
    fraud_submitted_at: formatDateTime(row.fraud_submitted_at),
    created_at: formatDateTime(row.created_at)!,
  };
}

const disputeRow = z.object({
  webhook_id: z.number().int().describe("the stored delivery (webhook_events.id); what POST /disputes/replay takes"),
  case_id: z.string().nullable(),
  event_id: z.string().nullable(),
  event_type: z.string().nullable(),
  received_at: z.string(),
  processed_at: z.string().nullable(),
  outcome: z.string().nullable().describe("how processing ended; null while it has not"),
  state: z.enum(DISPUTE_STATES).describe("pending, processing, retrying, matched, unmatched or failed"),
  state_reason: z.string().nullable(),
  next_attempt_at: z.string().nullable().describe("when the queue tries again (UTC)"),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  jobs: z.number().int().describe("the original job and its replays"),
  job_id: z.string().nullable(),
  job_state: z.string().nullable(),
  job_url: z.string().nullable().describe("the newest job's Bull Board page"),
});

const disputeExample = {
  webhook_id: 51,
  case_id: "CB-2026-0042",
  event_id: "acquirer_case_CB-2026-0042",
  event_type: "dispute.created",
  received_at: at,
  processed_at: null,
  outcome: null,
  state: "retrying" as const,
  state_reason: "Gateway request failed: 503",
  next_attempt_at: "2026-11-20 10:15:10",
  attempts: 1,
  last_error: "Gateway request failed: 503",
  jobs: 1,
  job_id: "dispute.acquirer_case_CB-2026-0042",
  job_state: "delayed",
  job_url: "/admin/queues/queue/disputes/dispute.acquirer_case_CB-2026-0042",
};

/** Dispute replay and the read side of received disputes, linkages and chargebacks (spec 1, 4.6; design section 9). */
export function disputeRoutes(api: ApiRouter, ctx: Pick<AppContext, "logger" | "prisma" | "queues" | "replica">): void {
  api.route({
    method: "get",
    path: "/disputes",
    summary: "Every received acquirer dispute, newest first, failed ones included, with its processing state and outcome",
    tag: "disputes",
    access: "manage_middleware",
    query: pageQuery.extend({
      state: z.enum(DISPUTE_STATE_FILTERS).optional().describe("pending (not finished: processing and retrying rows too), matched, unmatched or failed"),
      outcome: z.enum(Object.keys(DISPUTE_OUTCOMES) as [DisputeOutcome, ...DisputeOutcome[]]).optional(),
      case_id: z.string().trim().min(1).max(64).optional(),
      from: day.optional().describe("first day received, inclusive (UTC)"),
      to: day.optional().describe("last day received, inclusive (UTC)"),
      processed_since: z.coerce.date().optional().describe("processing ended at or after this time (ISO 8601)"),
    }),
    responses: { 200: { description: "One page", schema: pageSchema("disputes", disputeRow) } },
    example: { response: { disputes: [disputeExample], ...pageExample } },
    handler: async ({ query }) => {
      const { total, rows } = await listDisputes(
        ctx,
        {
          state: query.state,
          outcome: query.outcome,
          case_id: query.case_id,
          received_from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
          received_before: query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000) : undefined,
          processed_from: query.processed_since,
        },
        pageWindow(query),
      );
      return pageOf("disputes", rows, total, query);
    },
  });

  api.route({
    method: "post",
    path: "/disputes/replay",
    summary: "Queue a received dispute again, under a fresh job id; skipped, with why, while a job of it has yet to end",
    tag: "disputes",
    access: "manage_middleware",
    body: z.union([
      z.object({ webhook_id: z.number().int().positive() }).strict(),
      z.object({ case_id: z.string().trim().min(1).max(64) }).strict(),
    ]),
    status: 202,
    responses: {
      202: {
        description: "Queued, or skipped with why (every bulk trigger answers `queued` and `skipped`; this one acts on one dispute)",
        schema: z.object({
          success: z.literal(true),
          webhook_id: z.number().int(),
          job: z.object({ id: z.string(), queue: z.string(), state: z.string() }).describe("the job that processes the dispute now: the replay, or the one in progress"),
          queued: z.array(z.object({ webhook_id: z.number().int(), job_id: z.string() })),
          skipped: z.array(z.object({ webhook_id: z.number().int(), reason: z.string() })).describe("the dispute, when a job of it is waiting, running or waiting for a retry"),
        }),
      },
      404: { description: "No received dispute with that webhook id or case id" },
    },
    example: {
      request: { case_id: "CB-2026-0042" },
      response: {
        success: true,
        webhook_id: 1,
        job: { id: "dispute.acquirer_case_CB-2026-0042.replay.1795535133854", queue: "disputes", state: "waiting" },
        queued: [{ webhook_id: 1, job_id: "dispute.acquirer_case_CB-2026-0042.replay.1795535133854" }],
        skipped: [],
      },
    },
    handler: async ({ body }) => {
      const { webhookId, job, queued, skipped } = await replayDispute(ctx, body);
      return { success: true as const, webhook_id: webhookId, job: { ...job, queue: processDisputeJob.queue }, queued, skipped };
    },
  });

  api.route({
    method: "get",
    path: "/disputes/linkages",
    summary: "Dispute linkages, newest first",
    tag: "disputes",
    access: "manage_middleware",
    query: listQuery,
    responses: { 200: { description: "One page", schema: pageSchema("linkages", linkageRow) } },
    example: { response: { linkages: [linkageExample], ...pageExample } },
    handler: async ({ query }) => {
      const { total, rows } = await listLinkages(ctx, query, pageWindow(query));
      return pageOf("linkages", rows.map(linkageView), total, query);
    },
  });

  api.route({
    method: "get",
    path: "/disputes/linkages/:id",
    summary: "One linkage with the acquirer's and the gateway's full records",
    tag: "disputes",
    access: "manage_middleware",
    params: idParams,
    responses: { 200: { description: "The linkage", schema: linkageRow.extend({ acquirer_data: z.unknown(), gateway_data: z.unknown() }) } },
    example: {
      response: { ...linkageExample, acquirer_data: { case_id: "CB-2026-0042", amount: "49.90" }, gateway_data: { transaction_id: "10458823311", condition: "complete" } },
    },
    handler: async ({ params }) => {
      const row = await getLinkage(ctx, params.id);
      return { ...linkageView(row), acquirer_data: json(row.acquirer_data), gateway_data: json(row.gateway_data) };
    },
  });

  api.route({
    method: "get",
    path: "/disputes/chargebacks",
    summary: "Chargebacks, newest first",
    tag: "disputes",
    access: "manage_middleware",
    query: listQuery,
    responses: { 200: { description: "One page", schema: pageSchema("chargebacks", chargebackRow) } },
    example: { response: { chargebacks: [chargebackExample], ...pageExample } },
    handler: async ({ query }) => {
      const { total, rows } = await listChargebacks(ctx, query, pageWindow(query));
      return pageOf("chargebacks", rows.map(chargebackView), total, query);
    },
  });

  api.route({
    method: "get",
    path: "/disputes/chargebacks/:id",
    summary: "One chargeback with the fraud service's answer and the processing log",
    tag: "disputes",
    access: "manage_middleware",
    params: idParams,
    responses: {
      200: {
        description: "The chargeback",
        schema: chargebackRow.extend({ fraud_response: z.unknown(), acquirer_data: z.unknown(), action_log: z.unknown() }),
      },
    },
    example: { response: { ...chargebackExample, fraud_response: { id: "cb_8812" }, acquirer_data: { case_id: "CB-2026-0042" }, action_log: [] } },
    handler: async ({ params }) => {
      const row = await getChargeback(ctx, params.id);
      return { ...chargebackView(row), fraud_response: json(row.fraud_response), acquirer_data: json(row.acquirer_data), action_log: json(row.action_log) };
    },
  });
}
