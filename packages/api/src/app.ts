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
import type { DomainRoutes, RouteRegistrar } from "./http/domain-routes.ts";
import { healthRoutes } from "./http/health.ts";
import { requireHttps } from "./http/https.ts";
import { aiDomain } from "./routes/ai/index.ts";
import { consoleRoutes } from "./routes/console/index.ts";
import { managedSitesDomain } from "./routes/managed-sites/index.ts";
import { rawWebhookBody } from "./routes/disputes/acquirer-webhook.ts";
import { disputesDomain } from "./routes/disputes/index.ts";
import { identityDomain } from "./routes/identity/index.ts";
import { imagesDomain } from "./routes/images/index.ts";
import { inventoryDomain } from "./routes/inventory/index.ts";
import { knowledgeDomain } from "./routes/knowledge/index.ts";
import { notificationsDomain } from "./routes/notifications/index.ts";
import { ordersDomain } from "./routes/orders/index.ts";
import { queueDomain } from "./routes/queue/index.ts";
import { reportsDomain } from "./routes/reports/index.ts";
import { reviewsDomain } from "./routes/reviews/index.ts";
import { sitesDomain } from "./routes/sites/index.ts";
import { ticketsDomain } from "./routes/tickets/index.ts";
import { timetrackingDomain } from "./routes/timetracking/index.ts";
import { trackingDomain } from "./routes/tracking/index.ts";
import { urgencyDomain } from "./routes/urgency/index.ts";

/** Every domain's routes; the order is the order in which each kind of route is mounted. */
const DOMAINS: DomainRoutes[] = [
  disputesDomain,
  inventoryDomain,
  ordersDomain,
  identityDomain,
  queueDomain,
  sitesDomain,
  reviewsDomain,
  trackingDomain,
  reportsDomain,
  aiDomain,
  ticketsDomain,
  urgencyDomain,
  timetrackingDomain,
  notificationsDomain,
  knowledgeDomain,
  managedSitesDomain,
  imagesDomain,
];

function all<K extends keyof DomainRoutes>(kind: K): NonNullable<DomainRoutes[K]> {
  return DOMAINS.flatMap((domain): unknown[] => domain[kind] ?? []) as NonNullable<DomainRoutes[K]>;
}

function mount(router: ApiRouter, ctx: AppContext, registrars: RouteRegistrar[]): void {
  for (const register of registrars) register(router, ctx);
}

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
  for (const page of all("pages")) app.use(page(ctx));
  app.use(consoleRoutes(ctx));

  app.use(`${config.API_ROOT}/webhooks`, rawWebhookBody(config.BODY_LIMIT));
  app.use(jsonBody(config.BODY_LIMIT));

  const registry = createRegistry();
  const api = new ApiRouter(ctx, registry, config.API_ROOT);
  // The hot public endpoints first: Express tries routes in registration order.
  mount(api, ctx, all("hot"));
  mount(api, ctx, all("api"));
  app.use(config.API_ROOT || "/", api.router);
  // Spec 2's REST routes live under REST_ROOT.
  const rest = new ApiRouter(ctx, registry, config.REST_ROOT);
  mount(rest, ctx, all("rest"));
  app.use(config.REST_ROOT || "/", rest.router);
  // Spec 2, 4.3: the toolshed's tools, each under {REST_ROOT}/tools/v1/<tool>.
  for (const tool of await loadToolshed(ctx, registry)) app.use(tool.mountPath, tool.router);
  // Spec 2's staff AJAX root (design 10.1): errors in the AJAX shape.
  const staffAjax = new ApiRouter(ctx, registry, "/scp/ajax.php");
  mount(staffAjax, ctx, all("staffAjax"));
  app.use("/scp/ajax.php", staffAjax.router);
  // Spec 2's admin AJAX entry point (design 4): actions by name, errors in the AJAX shape.
  const adminAjax = new AdminAjax(ctx);
  adminAjax.register(all("adminActions").flatMap((actions) => actions(ctx)));
  adminAjax.document(registry);
  app.use(adminAjax.router(config.BODY_LIMIT));
  // The image API lives outside API_ROOT (spec 1, 4.9); the error handler answers `{error}` there.
  const images = new ApiRouter(ctx, registry, "/api");
  mount(images, ctx, all("images"));
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
