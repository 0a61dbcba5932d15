import express, { type ErrorRequestHandler, type Router } from "express";
import { AppError } from "@mw/platform";
import type { AppContext } from "../../context.ts";
import { CONSOLE_FILES, CONSOLE_PATH, renderPage } from "./render.ts";
import { cataloguePages } from "./catalogue.ts";
import { chatPages } from "./chat.ts";
import { disputePages } from "./disputes.ts";
import { managedSitePages } from "./managed-sites.ts";
import { reportPages } from "./reports.ts";
import { syncRunPages } from "./sync-runs.ts";
import { notificationPages } from "./notifications.ts";
import { operationsPages } from "./operations.ts";
import { orderPages } from "./orders.ts";
import { settingsPages } from "./settings.ts";
import { signInPages } from "./sign-in-pages.ts";
import { sitePages } from "./sites.ts";
import { ticketPages } from "./tickets.ts";

/** What a person sees when a console request fails: the message when it is ours to show, never a stack. */
function errorPage(ctx: Pick<AppContext, "logger">): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    // The body parser's refusals (413, 400) carry a status; ours are AppErrors.
    const status = error instanceof AppError ? error.status : ((error as { status?: number }).status ?? 500);
    if (status >= 500) ctx.logger.error("console page failed", { path: req.path, error: (error as Error).message });
    const message =
      error instanceof AppError && status < 500
        ? error.message
        : status === 413
          ? "The form was too large to accept."
          : status < 500
            ? "The request could not be read."
            : "Something went wrong on our side. Try again in a moment.";
    renderPage(res, "error", { title: status === 404 ? "Not found" : "Something went wrong", status, message }, status);
  };
}

/** The staff and operator console (design 10.7): server-rendered pages under /console. */
export function consoleRoutes(ctx: Pick<AppContext, "config" | "invalidation" | "logger" | "options" | "prisma" | "queues" | "redis" | "replica" | "sessions" | "storage">): Router {
  const router = express.Router();
  router.use(
    `${CONSOLE_PATH}/assets`,
    express.static(`${CONSOLE_FILES}assets`, {
      fallthrough: false,
      maxAge: "5m",
      setHeaders: (res) => res.set({ "X-Content-Type-Options": "nosniff" }),
    }),
  );
  const pages = express.Router();
  pages.use(express.urlencoded({ extended: false, limit: ctx.config.BODY_LIMIT, parameterLimit: 500 }));
  pages.use(signInPages(ctx));
  pages.use(ticketPages(ctx));
  pages.use(chatPages(ctx));
  pages.use(settingsPages(ctx));
  pages.use(operationsPages(ctx));
  pages.use(orderPages(ctx));
  pages.use(notificationPages(ctx));
  pages.use(sitePages(ctx));
  pages.use(cataloguePages(ctx));
  pages.use(disputePages(ctx));
  pages.use(syncRunPages(ctx));
  pages.use(reportPages(ctx));
  pages.use(managedSitePages(ctx));
  pages.use((req) => {
    throw new AppError(404, "rest_no_route", `Nothing here: ${req.path}`);
  });
  pages.use(errorPage(ctx));
  router.use(CONSOLE_PATH, pages);
  return router;
}
