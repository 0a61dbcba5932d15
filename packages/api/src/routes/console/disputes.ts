import express, { type Router } from "express";
import { errors } from "@mw/platform";
import { DISPUTE_OUTCOMES, DISPUTE_STATE_FILTERS, disputeByCase, listChargebacks, listDisputes, listLinkages, replayDispute, type DisputeOutcome } from "@mw/domains/disputes";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageWindow } from "../../http/pagination.ts";
import { signedIn, viewer } from "./guard.ts";
import { pager, PER_PAGE } from "./pager.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)));

// GET /disputes' filters; one the page cannot use is dropped rather than refused: the page still lists.
const filters = z.object({
  state: z.enum(DISPUTE_STATE_FILTERS).optional().catch(undefined),
  outcome: z.enum(Object.keys(DISPUTE_OUTCOMES) as [DisputeOutcome, ...DisputeOutcome[]]).optional().catch(undefined),
  case_id: z.string().trim().max(64).optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  page: pageQuery.shape.page.catch(1),
});

const caseParams = z.object({ case_id: z.string().trim().min(1).max(64) });
const replayForm = z.object({ case_id: z.string().trim().min(1).max(64) });

/** Received disputes (GET /disputes), one case with its matches and lifecycle, and replay (POST /disputes/replay), for operators. */
export function disputePages(ctx: Pick<AppContext, "logger" | "prisma" | "queues" | "replica" | "sessions">): Router {
  const router = express.Router();
  const operators = signedIn(ctx, ["manage_middleware"]);

  router.get("/disputes", operators, async (req, res) => {
    const query = filters.parse(req.query);
    const caseId = query.case_id || undefined;
    const { total, rows } = await listDisputes(
      ctx,
      {
        state: query.state,
        outcome: query.outcome,
        case_id: caseId,
        received_from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
        received_before: query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000) : undefined,
      },
      pageWindow({ page: query.page, per_page: PER_PAGE }),
    );
    const filter = { state: query.state, outcome: query.outcome, case_id: caseId, from: query.from, to: query.to };
    renderPage(res, "disputes", {
      title: "Disputes",
      disputes: rows,
      total,
      states: DISPUTE_STATE_FILTERS,
      outcomes: DISPUTE_OUTCOMES,
      filter: Object.fromEntries(Object.entries(filter).map(([name, value]) => [name, value ?? ""])),
      ...pager(filter, query.page, total),
    });
  });

  router.get("/disputes/:case_id", operators, async (req, res) => {
    const parsed = caseParams.safeParse(req.params);
    const dispute = parsed.success ? await disputeByCase(ctx, parsed.data.case_id) : null;
    if (!parsed.success || !dispute) throw errors.notFound("No received dispute with that case id.");
    const caseId = parsed.data.case_id;
    // The matches: the linkage to the gateway transaction and the chargeback sent to the fraud service, as their REST lists give them.
    const [linkages, chargebacks] = await Promise.all([
      listLinkages(ctx, { case_id: caseId }, { skip: 0, take: PER_PAGE }),
      listChargebacks(ctx, { case_id: caseId }, { skip: 0, take: PER_PAGE }),
    ]);
    const replay = typeof req.query.replay === "string" ? req.query.replay.slice(0, 300) : null;
    renderPage(res, "dispute", { title: `Dispute ${caseId}`, caseId, dispute, outcomes: DISPUTE_OUTCOMES, linkages: linkages.rows, chargebacks: chargebacks.rows, replay });
  });

  // POST /disputes/replay's use case: queued under a fresh job id, or skipped with why while a job of it has yet to end.
  router.post("/disputes/replay", operators, async (req, res) => {
    const parsed = replayForm.safeParse(req.body);
    if (!parsed.success) throw errors.invalidInput("Choose a dispute to replay.");
    const { job, queued, skipped } = await replayDispute(ctx, { case_id: parsed.data.case_id });
    ctx.logger.info("dispute replay asked in the console", { case_id: parsed.data.case_id, login: viewer(res).principal.login, queued: queued.length });
    const said = queued.length ? `Queued again as job ${job.id}.` : `Not queued: ${skipped[0]?.reason ?? "a job of it has yet to end"}.`;
    res.redirect(303, `${CONSOLE_PATH}/disputes/${encodeURIComponent(parsed.data.case_id)}?replay=${encodeURIComponent(said)}`);
  });
  return router;
}
