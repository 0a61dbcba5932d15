import { errors, formatDateTime, isObjectNotFound } from "@mw/platform";
import {
  listReports,
  REPORT_STATUSES,
  REPORT_TYPES,
  reportFileName,
  reportPeriod,
  reportRequest,
  requestReport,
  requireReport,
  type Report,
  type ReportStatus,
  type ReportType,
} from "@mw/domains/reports";
import type { Response } from "express";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";
import { sendObject } from "../../http/send-object.ts";

const reportRow = z.object({
  id: z.number().int(),
  type: z.enum(REPORT_TYPES),
  key: z.string().describe("the report key, also the job description"),
  from: z.string(),
  to: z.string(),
  status: z.enum(REPORT_STATUSES),
  row_count: z.number().int().nullable(),
  job_id: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export function presentReport(report: Report): z.infer<typeof reportRow> {
  const period = reportPeriod.parse(report.params);
  return {
    id: report.id,
    type: report.type as ReportType,
    key: report.report_key,
    from: period.from,
    to: period.to,
    status: report.status as ReportStatus,
    row_count: report.row_count,
    job_id: report.job_id,
    error: report.error,
    created_at: formatDateTime(report.created_at)!,
    started_at: formatDateTime(report.started_at),
    finished_at: formatDateTime(report.finished_at),
  };
}

const reportId = z.object({ id: z.coerce.number().int().positive() });

const exampleAt = "2026-11-20 10:15:00";
const exampleReport = {
  id: 9,
  type: "order-intake-daily",
  key: "order-intake-daily:2026-11-19",
  from: "2026-11-19",
  to: "2026-11-19",
  status: "completed",
  row_count: 42,
  job_id: "report.9.1795535133854",
  error: null,
  created_at: exampleAt,
  started_at: exampleAt,
  finished_at: "2026-11-20 10:15:02",
};

/** Report jobs (reports queue): queue one, list them, download the CSV. */
export function reportRoutes(api: ApiRouter, ctx: Pick<AppContext, "logger" | "prisma" | "queues" | "storage">): void {
  api.route({
    method: "post",
    path: "/reports",
    summary: "Queue a report for one day (date) or a period (from, to; UTC days, inclusive); asking again reruns it",
    tag: "reports",
    access: "manage_middleware",
    body: reportRequest,
    status: 202,
    example: {
      request: { type: "order-intake-daily", date: "2026-11-19" },
      response: { success: true, report_id: 9, job_id: "report.9.1795535133854", key: "order-intake-daily:2026-11-19", message: "Report queued." },
    },
    responses: {
      202: {
        description: "Queued (or already waiting to run)",
        schema: z.object({ success: z.literal(true), report_id: z.number().int(), job_id: z.string(), key: z.string(), message: z.string() }),
      },
    },
    handler: async ({ body }) => {
      const { report, jobId, queued } = await requestReport(ctx, body.type, body.period);
      ctx.logger.info("report requested", { report_id: report.id, key: report.report_key, job_id: jobId, queued });
      return { success: true as const, report_id: report.id, job_id: jobId, key: report.report_key, message: queued ? "Report queued." : "Report already queued." };
    },
  });

  api.route({
    method: "get",
    path: "/reports",
    summary: "List reports, newest first",
    tag: "reports",
    access: "manage_middleware",
    query: pageQuery.extend({ type: z.enum(REPORT_TYPES).optional(), status: z.enum(REPORT_STATUSES).optional() }),
    example: { response: pageOf("reports", [exampleReport], 1, { page: 1, per_page: 20 }) },
    responses: { 200: { description: "One page of reports", schema: pageSchema("reports", reportRow) } },
    handler: async ({ query }) => {
      const { total, rows } = await listReports(ctx, query, pageWindow(query));
      return pageOf("reports", rows.map(presentReport), total, query);
    },
  });

  api.route({
    method: "get",
    path: "/reports/:id",
    summary: "One report",
    tag: "reports",
    access: "manage_middleware",
    params: reportId,
    example: { response: exampleReport },
    responses: { 200: { description: "The report", schema: reportRow }, 404: { description: "No such report" } },
    handler: async ({ params }) => presentReport(await requireReport(ctx, params.id)),
  });

  api.route({
    method: "get",
    path: "/reports/:id/download",
    summary: "The report's CSV (text/csv, as an attachment)",
    tag: "reports",
    access: "manage_middleware",
    params: reportId,
    example: { mediaType: "text/csv", response: "order_number,site,dateadded,total\n100045,Main shop,2026-11-19 14:02:11,44.75\n" },
    responses: {
      200: { description: "text/csv with a header row" },
      404: { description: "No such report, or its file is gone from storage" },
      409: { description: "The report is not completed (yet)" },
      503: { description: "Storage failed" },
    },
    handler: async ({ params }, _req, res) => {
      await sendReportCsv(ctx, params.id, res);
      return undefined;
    },
  });
}

/** A completed report's CSV as an attachment: GET /reports/{id}/download and the console's download link alike. */
export async function sendReportCsv(ctx: Pick<AppContext, "logger" | "prisma" | "storage">, id: number, res: Response): Promise<void> {
  const report = await requireReport(ctx, id);
  if (report.status !== "completed" || !report.storage_key) {
    throw errors.conflict("report_not_ready", `Report ${report.id} is ${report.status}.`, { report_status: report.status });
  }
  // Everything that can throw comes before the object is opened, so no stream is left open on an error.
  const fileName = reportFileName(report.type as ReportType, reportPeriod.parse(report.params));
  let object;
  try {
    object = await ctx.storage.get(report.storage_key);
  } catch (error) {
    if (isObjectNotFound(error)) throw errors.notFound(`The file of report ${report.id} is missing from storage; queue the report again.`);
    throw error;
  }
  res.set({
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${fileName}"`,
    "Cache-Control": "private, no-cache",
  });
  if (object.size !== null) res.set("Content-Length", String(object.size));
  await sendObject(ctx.logger, object, report.storage_key, res);
}
