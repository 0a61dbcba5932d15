import express, { type Router } from "express";
import type { AppContext } from "../../context.ts";
import { signedIn, viewer } from "./guard.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";
import { fieldsByGroup, readSettingsForm } from "./settings-form.ts";

/** Spec 2, 2.2 and 2.3: the AI, ticket-system and time-tracking settings, for manage_options. */
export function settingsPages(ctx: Pick<AppContext, "logger" | "options" | "prisma" | "sessions">): Router {
  const router = express.Router();
  const admins = signedIn(ctx, ["manage_options"]);

  router.get("/settings", admins, async (req, res) => {
    const saved = typeof req.query.saved === "string" && /^\d{1,3}$/.test(req.query.saved) ? Number(req.query.saved) : null;
    renderPage(res, "settings", { title: "Settings", groups: fieldsByGroup(await ctx.options.view()), saved, errorCount: 0 });
  });

  router.post("/settings", admins, async (req, res) => {
    const current = await ctx.options.view();
    const { changes, submitted, errors } = readSettingsForm(req.body as Record<string, unknown>, current);
    const errorCount = Object.keys(errors).length;
    if (errorCount) {
      renderPage(res, "settings", { title: "Settings", groups: fieldsByGroup(current, submitted, errors), saved: null, errorCount }, 400);
      return;
    }
    const names = Object.keys(changes);
    if (names.length) {
      await ctx.options.set(changes);
      ctx.logger.info("settings changed in the console", { options: names, login: viewer(res).principal.login });
    }
    res.redirect(303, `${CONSOLE_PATH}/settings?saved=${names.length}`);
  });
  return router;
}
