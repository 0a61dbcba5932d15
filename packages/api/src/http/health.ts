import express, { type Router } from "express";
import { pingEveryMaster, withTimeout } from "@mw/platform";
import { alertsCheck } from "@mw/domains/notifications";
import { missingSchedules } from "@mw/domains/schedules";
import { credentialsCheck } from "@mw/domains/sites";
import type { AppContext } from "../context.ts";
import { metricsAccess } from "./metrics-access.ts";
import type { Metrics } from "./metrics.ts";

const CHECK_TIMEOUT_MS = 2000;

async function check(probe: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  try {
    await withTimeout(probe(), CHECK_TIMEOUT_MS);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** A check read from the database: not tried while the database is down, and bounded in time like the others. */
async function fromDatabase<T extends { ok: boolean; error?: string }>(reachable: boolean, read: () => Promise<T>, unreadable: string): Promise<T | { ok: false; error: string }> {
  if (!reachable) return { ok: false, error: unreadable };
  return withTimeout(read(), CHECK_TIMEOUT_MS).catch(() => ({ ok: false as const, error: unreadable }));
}

export function healthRoutes(ctx: Pick<AppContext, "config" | "prisma" | "queues" | "redis" | "replicaState">, metrics: Metrics): Router {
  const router = express.Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  // Ready means it can serve: a missing job schedule, an unreachable read replica (its
  // reads go to the primary meanwhile), an alert that reached nobody or a sync whose
  // upstream refuses its credentials does not stop requests, so each is `degraded` (200)
  // rather than unavailable, and the checks name what is wrong.
  router.get("/readyz", async (_req, res) => {
    const replicaState = ctx.replicaState;
    const [database, redis, replica] = await Promise.all([
      check(() => ctx.prisma.$queryRaw`SELECT 1`),
      // On a cluster, every shard's master: a shard without one cannot take its queues' jobs.
      check(() => pingEveryMaster(ctx.redis, CHECK_TIMEOUT_MS)),
      replicaState ? check(() => replicaState.probe()) : undefined,
    ]);
    const lag = replicaState?.lag;
    // Lagging beyond REPLICA_MAX_LAG_SECONDS: its reads use the primary meanwhile, as while it is unreachable.
    if (replica?.ok && replicaState?.lagging) Object.assign(replica, { ok: false, error: `lag ${lag!.toFixed(1)} s is above REPLICA_MAX_LAG_SECONDS (${replicaState.maxLagSeconds}): reads use the primary` });
    if (replica && lag !== undefined) Object.assign(replica, { lag_seconds: Math.round(lag * 10) / 10 });
    const ready = database.ok && redis.ok;
    const missing = redis.ok ? await withTimeout(missingSchedules(ctx.queues), CHECK_TIMEOUT_MS).catch(() => undefined) : undefined;
    const schedules = missing === undefined ? { ok: false, error: "could not be read" } : { ok: missing.length === 0, missing: missing.map((job) => job.name) };
    const [alerts, credentials] = await Promise.all([
      fromDatabase(database.ok, () => alertsCheck(ctx), "alerts: could not be read"),
      fromDatabase(database.ok, () => credentialsCheck(ctx), "credentials: could not be read"),
    ]);
    const status = !ready ? "unavailable" : schedules.ok && alerts.ok && credentials.ok && (replica?.ok ?? true) ? "ready" : "degraded";
    res.status(ready ? 200 : 503).json({ status, checks: { database, redis, schedules, alerts, credentials, ...(replica ? { replica } : {}) } });
  });
  const mayReadMetrics = metricsAccess(ctx.config);
  router.get("/metrics", async (req, res) => {
    mayReadMetrics(req, res);
    res.type(metrics.registry.contentType).send(await metrics.render());
  });
  return router;
}
