import { errors, formatDateTime, type Prisma } from "@mw/platform";
import { disputeReplayJobId, processDisputeJob } from "@mw/shared/disputes";
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

function dayRange(from?: string, to?: string): { gte?: Date; lt?: Date } | undefined {
  if (!from && !to) return undefined;
  return {
    ...(from ? { gte: new Date(`${from}T00:00:00Z`) } : {}),
    ...(to ? { lt: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) } : {}),
  };
}

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

type Linkage = Prisma.DisputeLinkageGetPayload<object>;
type Chargeback = Prisma.ChargebackGetPayload<object>;

function linkageView(row: Linkage): z.infer<typeof linkageRow> {
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


/** Dispute replay and the read side of linkages and chargebacks (spec 1, 4.6; design section 9). */
export function disputeRoutes(api: ApiRouter, ctx: AppContext): void {
  api.route({
    method: "post",
    path: "/disputes/replay",
    summary: "Queue a received dispute again, under a fresh job id",
    tag: "disputes",
    access: "manage_middleware",
    body: z.union([
      z.object({ webhook_id: z.number().int().positive() }).strict(),
      z.object({ case_id: z.string().trim().min(1).max(64) }).strict(),
    ]),
    status: 202,
    responses: {
      202: {
        description: "Queued",
        schema: z.object({ success: z.literal(true), webhook_id: z.number().int(), job: z.object({ id: z.string(), queue: z.string(), state: z.string() }) }),
      },
      404: { description: "No received dispute with that webhook id or case id" },
    },
    handler: async ({ body }) => {
      const where = "webhook_id" in body ? { id: body.webhook_id, source: "acquirer" } : { event_id: `acquirer_case_${body.case_id}`, source: "acquirer" };
      const row = await ctx.prisma.webhookEvent.findFirst({ where, select: { id: true, event_id: true } });
      if (!row) throw errors.notFound("No received dispute matches.");
      const id = disputeReplayJobId(row, Date.now());
      await ctx.queues.add(processDisputeJob, { webhook_id: row.id }, { jobId: id });
      ctx.logger.info("dispute replayed", { webhook_id: row.id, job_id: id });
      return { success: true as const, webhook_id: row.id, job: { id, queue: processDisputeJob.queue, state: "waiting" } };
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
    handler: async ({ query }) => {
      const where: Prisma.DisputeLinkageWhereInput = { case_id: query.case_id, order_number: query.order_number, linked_at: dayRange(query.from, query.to) };
      const [total, rows] = await Promise.all([
        ctx.prisma.disputeLinkage.count({ where }),
        ctx.prisma.disputeLinkage.findMany({ where, orderBy: { id: "desc" }, ...pageWindow(query) }),
      ]);
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
    handler: async ({ params }) => {
      const row = await ctx.prisma.disputeLinkage.findUnique({ where: { id: params.id } });
      if (!row) throw errors.notFound("Linkage not found.");
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
    handler: async ({ query }) => {
      const where: Prisma.ChargebackWhereInput = { case_id: query.case_id, order_number: query.order_number, created_at: dayRange(query.from, query.to) };
      const [total, rows] = await Promise.all([
        ctx.prisma.chargeback.count({ where }),
        ctx.prisma.chargeback.findMany({ where, orderBy: { id: "desc" }, ...pageWindow(query) }),
      ]);
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
    handler: async ({ params }) => {
      const row = await ctx.prisma.chargeback.findUnique({ where: { id: params.id } });
      if (!row) throw errors.notFound("Chargeback not found.");
      return { ...chargebackView(row), fraud_response: json(row.fraud_response), acquirer_data: json(row.acquirer_data), action_log: json(row.action_log) };
    },
  });
}
