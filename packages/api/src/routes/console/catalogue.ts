import express, { type Router } from "express";
import { formatDateTime } from "@mw/platform";
import { createMerchant, deleteMerchant, listMerchants, merchantInput } from "@mw/domains/disputes";
import { itemsFromRecords, listItems, MAX_ITEMS_PER_UPSERT, upsertItems } from "@mw/domains/inventory";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { csvTextRecords } from "../../cli/csv-file.ts";
import { pageQuery, pageWindow } from "../../http/pagination.ts";
import { refusalProblems, zodProblems } from "./form-problems.ts";
import { signedIn, viewer } from "./guard.ts";
import { pager, PER_PAGE } from "./pager.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";

type Ctx = Pick<AppContext, "config" | "logger" | "prisma" | "sessions">;

const page = pageQuery.shape.page.catch(1);
// As GET /items takes it; a search the page cannot use is dropped rather than refused.
const itemFilters = z.object({ search: z.string().trim().min(1).max(64).optional().catch(undefined), page });
const count = z.coerce.number().int().min(0).optional().catch(undefined);
const params = z.object({ id: z.coerce.number().int().positive() });

/**
 * The item catalogue (GET /items, POST /items, `pnpm cli items:import`) and
 * the acquirer merchant accounts (/merchant-accounts) for operators.
 */
export function cataloguePages(ctx: Ctx): Router {
  const router = express.Router();
  const operators = signedIn(ctx, ["manage_middleware"]);
  const key = ctx.config.ENCRYPTION_KEY;

  async function renderItems(query: unknown, res: express.Response, extra: { problems?: string[]; csv?: string } = {}, status = 200) {
    const filter = itemFilters.parse(query);
    const imported = z.object({ created: count, updated: count }).parse(query);
    const { total, rows } = await listItems(ctx, filter.search, pageWindow({ page: filter.page, per_page: PER_PAGE }));
    const items = rows.map((row) => ({ id: row.id, sku: row.sku, name: row.name, price: Number(row.price), stock: row.stock, updated_at: formatDateTime(row.updated_at)! }));
    renderPage(
      res,
      "items",
      {
        title: "Items",
        items,
        total,
        filter: { search: filter.search ?? "" },
        imported: imported.created !== undefined && imported.updated !== undefined ? imported : null,
        problems: extra.problems ?? [],
        csv: extra.csv ?? "",
        maxRows: MAX_ITEMS_PER_UPSERT,
        scripts: ["csv-file.js"],
        ...pager({ search: filter.search }, filter.page, total),
      },
      status,
    );
  }

  router.get("/items", operators, async (req, res) => {
    await renderItems(req.query, res);
  });

  router.post("/items/import", operators, async (req, res) => {
    const csv = typeof (req.body as { csv?: unknown }).csv === "string" ? (req.body as { csv: string }).csv : "";
    let problems: string[];
    try {
      const items = await itemsFromRecords(csvTextRecords(csv));
      if (items.length === 0) problems = ["The CSV has no rows: a header row (sku,name,price,stock), then one item per line."];
      else if (items.length > MAX_ITEMS_PER_UPSERT) problems = [`${items.length} rows: at most ${MAX_ITEMS_PER_UPSERT} at a time, as POST /items takes them.`];
      else {
        const counts = await upsertItems(ctx, items);
        ctx.logger.info("items upserted", { ...counts, login: viewer(res).principal.login });
        res.redirect(303, `${CONSOLE_PATH}/items?created=${counts.created}&updated=${counts.updated}`);
        return;
      }
    } catch (error) {
      // csv-parse's own refusals (an unclosed quote, a row of the wrong width) name the line.
      problems = error instanceof Error && (error as { code?: unknown }).code?.toString().startsWith("CSV_") ? [error.message] : refusalProblems(error).flatMap((line) => line.split("\n"));
    }
    await renderItems({}, res, { problems, csv }, 400);
  });

  async function renderMerchants(query: unknown, res: express.Response, extra: { problems?: string[]; form?: Record<string, string> } = {}, status = 200) {
    const current = z.object({ page, done: z.enum(["added", "deleted"]).optional().catch(undefined) }).parse(query);
    const { total, rows } = await listMerchants(ctx, pageWindow({ page: current.page, per_page: PER_PAGE }));
    const merchants = rows.map((row) => ({ ...row, created_at: formatDateTime(row.created_at)!, updated_at: formatDateTime(row.updated_at)! }));
    const notice = current.done && { added: "Merchant account added.", deleted: "Merchant account deleted." }[current.done];
    renderPage(res, "merchants", { title: "Merchant accounts", merchants, total, notice: notice ?? null, problems: extra.problems ?? [], form: extra.form ?? { mid: "", name: "" }, ...pager({}, current.page, total) }, status);
  }

  router.get("/merchant-accounts", operators, async (req, res) => {
    await renderMerchants(req.query, res);
  });

  router.post("/merchant-accounts", operators, async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const form = { mid: typeof body.mid === "string" ? body.mid : "", name: typeof body.name === "string" ? body.name : "" };
    const parsed = merchantInput.safeParse({ ...form, name: form.name.trim() || undefined, security_key: body.security_key });
    let problems = parsed.success ? [] : zodProblems(parsed.error);
    if (parsed.success) {
      try {
        const row = await createMerchant(ctx, key, parsed.data);
        ctx.logger.info("merchant account created", { merchant_id: row.id, mid: row.mid, login: viewer(res).principal.login });
        res.redirect(303, `${CONSOLE_PATH}/merchant-accounts?done=added`);
        return;
      } catch (error) {
        problems = refusalProblems(error);
      }
    }
    await renderMerchants({}, res, { problems, form }, 400);
  });

  router.post("/merchant-accounts/:id/delete", operators, async (req, res) => {
    const { id } = params.parse(req.params);
    await deleteMerchant(ctx, id);
    ctx.logger.info("merchant account deleted", { merchant_id: id, login: viewer(res).principal.login });
    res.redirect(303, `${CONSOLE_PATH}/merchant-accounts?done=deleted`);
  });
  return router;
}
