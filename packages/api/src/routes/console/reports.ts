import express, { type Router } from "express";
import { listReports, REPORT_STATUSES, REPORT_TYPES, reportRequest, requestReport } from "@mw/domains/reports";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageWindow } from "../../http/pagination.ts";
import { presentReport, sendReportCsv } from "../reports/reports.ts";
import { signedIn, viewer } from "./guard.ts";
import { pager, PER_PAGE } from "./pager.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";

// GET /reports' filters; one the page cannot use is dropped rather than refused.
const filters = z.object({
  type: z.enum(REPORT_TYPES).optional().catch(undefined),
  status: z.enum(REPORT_STATUSES).optional().catch(undefined),
  page: pageQuery.shape.page.catch(1),
});

const reportId = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** An empty form field is one not given: "date" or "from and to". */
function given(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name, value]) => name !== "nonce" && value !== ""));
}

/** Reports for operators: request one (POST /reports' use case), list them (GET /reports), download a finished one's CSV. */
export function reportPages(ctx: Pick<AppContext, "logger" | "prisma" | "queues" | "sessions" | "storage">): Router {
  const router = express.Router();
  const operators = signedIn(ctx, ["manage_middleware"]);

  const list = async (query: z.output<typeof filters>) => {
    const { total, rows } = await listReports(ctx, { type: query.type, status: query.status }, pageWindow({ page: query.page, per_page: PER_PAGE }));
    return {
      title: "Reports",
      reports: rows.map(presentReport),
      total,
      types: REPORT_TYPES,
      statuses: REPORT_STATUSES,
      filter: { type: query.type ?? "", status: query.status ?? "" },
      ...pager({ type: query.type, status: query.status }, query.page, total),
    };
  };

  router.get("/reports", operators, async (req, res) => {
    const requested = typeof req.query.requested === "string" ? req.query.requested.slice(0, 200) : null;
    renderPage(res, "reports", { ...(await list(filters.parse(req.query))), requested, form: { type: "", date: "", from: "", to: "" }, problem: null });
  });

  router.post("/reports", operators, async (req, res) => {
    const body = given(req.body as Record<string, unknown>);
    const parsed = reportRequest.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const form = { type: "", date: "", from: "", to: "", ...(body as Record<string, string>) };
      renderPage(res, "reports", { ...(await list(filters.parse({}))), requested: null, form, problem: `${String(issue.path[0] ?? "report")}: ${issue.message}` }, 400);
      return;
    }
    const { report, jobId, queued } = await requestReport(ctx, parsed.data.type, parsed.data.period);
    ctx.logger.info("report requested in the console", { report_id: report.id, key: report.report_key, job_id: jobId, queued, login: viewer(res).principal.login });
    const said = `${report.report_key}: ${queued ? "queued" : "already queued"} (job ${jobId}).`;
    res.redirect(303, `${CONSOLE_PATH}/reports?requested=${encodeURIComponent(said)}`);
  });

  router.get("/reports/:id/download", operators, async (req, res) => {
    const parsed = reportId.safeParse(req.params);
    if (!parsed.success) {
      renderPage(res, "error", { title: "Not found", status: 404, message: "No such report." }, 404);
      return;
    }
    await sendReportCsv(ctx, parsed.data.id, res);
  });
  return router;
}
