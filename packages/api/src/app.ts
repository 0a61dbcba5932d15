import { createServer as createHttpServer, type Server } from "node:http";
import express, { type Express } from "express";
import swaggerUi from "swagger-ui-express";
import { DatabaseOutage, httpsRequired } from "@mw/platform";
import type { AppContext } from "./context.ts";
import { AdminAjax } from "./http/admin-ajax.ts";
import { ApiRouter } from "./http/api-router.ts";
import { shapeClientErrors } from "./http/client-error.ts";
import { errorHandler, notFoundHandler } from "./http/error-handler.ts";
import { jsonBody } from "./http/json-body.ts";
import { expressRequestClasses } from "./http/request-classes.ts";
import { Metrics } from "./http/metrics.ts";
import { createRegistry, openApiDocument } from "./http/openapi.ts";
import { loadToolshed } from "./http/toolshed.ts";
import { acquirerWebhookRoutes, rawWebhookBody } from "./routes/disputes/acquirer-webhook.ts";
import { apiKeyRoutes } from "./routes/sites/api-keys.ts";
import { disputeRoutes } from "./routes/disputes/disputes.ts";
import { authRoutes } from "./routes/identity/auth.ts";
import { requireHttps } from "./http/https.ts";
import { aiRoutes } from "./routes/ai/ai.ts";
import { aiActions } from "./routes/ai/admin-actions.ts";
import { aiSettingsRoutes } from "./routes/ai/settings.ts";
import { dashboardActions } from "./routes/dashboard/admin-actions.ts";
import { jobActions } from "./routes/queue/admin-actions.ts";
import { queueUtilityActions } from "./routes/queue/utility-actions.ts";
import { knowledgeActions } from "./routes/knowledge/admin-actions.ts";
import { assistantRoutes } from "./routes/knowledge/assistant.ts";
import { loginPageRoutes } from "./routes/identity/login-page.ts";
import { BOARD_PATH, boardRoutes } from "./routes/queue/board.ts";
import { consoleRoutes } from "./routes/console/index.ts";
import { externalOrderRoutes } from "./routes/orders/external-orders.ts";
import { healthRoutes } from "./http/health.ts";
import { inventoryTestingRoutes } from "./routes/inventory/inventory-testing.ts";
import { imageRoutes } from "./routes/images/images.ts";
import { itemRoutes } from "./routes/inventory/items.ts";
import { reviewRoutes } from "./routes/reviews/reviews.ts";
import { merchantRoutes } from "./routes/disputes/merchants.ts";
import { orderRoutes } from "./routes/orders/orders.ts";
import { productWebhookRoutes } from "./routes/inventory/product-webhook.ts";
import { queueRoutes } from "./routes/queue/queue.ts";
import { reportRoutes } from "./routes/reports/reports.ts";
import { siteRoutes } from "./routes/sites/sites.ts";
import { carrierMappingRoutes } from "./routes/sites/carrier-mappings.ts";
import { statsRoutes } from "./routes/orders/stats.ts";
import { orderVolumeRoutes } from "./routes/orders/order-volume.ts";
import { trackingRoutes } from "./routes/tracking/tracking.ts";
import { staffNotificationRoutes } from "./routes/notifications/staff-notifications.ts";
import { ticketChangesRoutes } from "./routes/tickets/changes.ts";
import { timeConnectionRoutes } from "./routes/timetracking/connection.ts";
import { timerRoutes } from "./routes/timetracking/timers.ts";
import { scheduledTimeRoutes } from "./routes/timetracking/scheduled.ts";
import { ticketSignalRoutes } from "./routes/tickets/signals.ts";
import { urgencyReadRoutes } from "./routes/tickets/urgency.ts";

/** Throws ToolshedError when a tool cannot be loaded (the API must not start without it). */
export async function createApp(ctx: AppContext): Promise<Express> {
  const { config } = ctx;
  const app = express();
  app.disable("x-powered-by");
  // An ETag is a hash of every JSON answer; our API answers are not cached by validators, so skip the work.
  app.set("etag", false);
  app.set("trust proxy", config.TRUST_PROXY);

  const metrics = new Metrics(ctx);
  app.use(metrics.middleware());
  app.use(healthRoutes(ctx, metrics));
  if (httpsRequired(config)) app.use(requireHttps());
  app.use(loginPageRoutes(ctx, BOARD_PATH));
  app.use(boardRoutes(ctx));
  app.use(consoleRoutes(ctx));

  app.use(`${config.API_ROOT}/webhooks`, rawWebhookBody(config.BODY_LIMIT));
  app.use(jsonBody(config.BODY_LIMIT));

  const registry = createRegistry();
  const api = new ApiRouter(ctx, registry, config.API_ROOT);
  // The hot public endpoints first: Express tries routes in registration order.
  acquirerWebhookRoutes(api, ctx);
  productWebhookRoutes(api, ctx);
  externalOrderRoutes(api, ctx);
  authRoutes(api, ctx);
  queueRoutes(api, ctx);
  siteRoutes(api, ctx);
  carrierMappingRoutes(api, ctx);
  apiKeyRoutes(api, ctx);
  itemRoutes(api, ctx);
  reviewRoutes(api, ctx);
  orderRoutes(api, ctx);
  statsRoutes(api, ctx);
  merchantRoutes(api, ctx);
  disputeRoutes(api, ctx);
  trackingRoutes(api, ctx);
  inventoryTestingRoutes(api, ctx);
  reportRoutes(api, ctx);
  app.use(config.API_ROOT || "/", api.router);
  // Spec 2's REST routes live under REST_ROOT.
  const rest = new ApiRouter(ctx, registry, config.REST_ROOT);
  aiRoutes(rest, ctx);
  aiSettingsRoutes(rest, ctx);
  ticketSignalRoutes(rest, ctx);
  urgencyReadRoutes(rest, ctx);
  ticketChangesRoutes(rest, ctx);
  scheduledTimeRoutes(rest, ctx);
  orderVolumeRoutes(rest, ctx);
  app.use(config.REST_ROOT || "/", rest.router);
  // Spec 2, 4.3: the toolshed's tools, each under {REST_ROOT}/tools/v1/<tool>.
  for (const tool of await loadToolshed(ctx, registry)) app.use(tool.mountPath, tool.router);
  // Spec 2's staff AJAX root (design 10.1): errors in the AJAX shape.
  const staffAjax = new ApiRouter(ctx, registry, "/scp/ajax.php");
  staffNotificationRoutes(staffAjax, ctx);
  timeConnectionRoutes(staffAjax, ctx);
  timerRoutes(staffAjax, ctx);
  assistantRoutes(staffAjax, ctx);
  app.use("/scp/ajax.php", staffAjax.router);
  // Spec 2's admin AJAX entry point (design 4): actions by name, errors in the AJAX shape.
  const adminAjax = new AdminAjax(ctx);
  adminAjax.register([...dashboardActions(ctx), ...aiActions(ctx), ...knowledgeActions(ctx), ...jobActions(ctx), ...queueUtilityActions(ctx)]);
  adminAjax.document(registry);
  app.use(adminAjax.router(config.BODY_LIMIT));
  // The image API lives outside API_ROOT (spec 1, 4.9); the error handler answers `{error}` there.
  const images = new ApiRouter(ctx, registry, "/api");
  imageRoutes(images, ctx);
  app.use("/api", images.router);

  const document = openApiDocument(registry, config.PUBLIC_URL);
  app.get("/openapi.json", (_req, res) => {
    res.json(document);
  });
  app.use("/docs", swaggerUi.serve, swaggerUi.setup(undefined, { swaggerUrl: "/openapi.json", customSiteTitle: "Middleware API" }));

  app.use(notFoundHandler());
  app.use(errorHandler(ctx.logger, new DatabaseOutage(ctx.prisma, ctx.logger)));
  return app;
}

/** The HTTP server of the API: the app, plus the REST error shape for what Node refuses before it. */
export async function createServer(ctx: AppContext): Promise<Server> {
  const app = await createApp(ctx);
  const server = createHttpServer(expressRequestClasses(app), app);
  shapeClientErrors(server);
  return server;
}
