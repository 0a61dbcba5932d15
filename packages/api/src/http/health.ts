import express, { type Router } from "express";
import { withTimeout } from "@mw/shared";
import type { AppContext } from "../context.ts";
import type { Metrics } from "./metrics.ts";

async function check(probe: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  try {
    await withTimeout(probe(), 2000);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

export function healthRoutes(ctx: AppContext, metrics: Metrics): Router {
  const router = express.Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const [database, redis] = await Promise.all([
      check(() => ctx.prisma.$queryRaw`SELECT 1`),
      check(() => ctx.redis.ping()),
    ]);
    const ready = database.ok && redis.ok;
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "unavailable", checks: { database, redis } });
  });
  router.get("/metrics", async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.render());
  });
  return router;
}
