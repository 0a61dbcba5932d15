import { request } from "node:http";
import { defineJob, JobCatalog, openConnections, pingEveryMaster, QUEUE_NAMES, renderJobDurations, type Connections } from "@mw/platform";
import { createUser, setLoginPassword } from "@mw/domains/identity";
import { handle } from "@mw/worker/runtime/processor";
import { startWorkers } from "@mw/worker/runtime/workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { disputePayload } from "../../scripts/chaos/traffic.ts";
import { startApi, testConfig, uniqueLogin, userWith, type TestApi } from "../support/api.ts";
import { testQueuePrefix } from "../support/env.ts";
import { until } from "../support/wait.ts";

/** A job of every queue that logs a line and answers its payload doubled. */
const PROBES = QUEUE_NAMES.map((queue) => defineJob({ queue, name: "redis-probe", payload: z.object({ n: z.number().int() }) }));

const CATALOG = new JobCatalog(
  PROBES.map((job) =>
    handle(job, async (_job, payload, ctx) => {
      ctx.log.info("doubling", { n: payload.n });
      return payload.n * 2;
    }),
  ),
);

/**
 * A JSON POST sent from `address` (a 127.x.y.z loopback address: the API sees
 * it as the client's, no proxy header needed); answers status and headers.
 */
function postFrom(address: string, url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", localAddress: address, headers: { "content-type": "application/json", ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * What every REDIS_URL form must carry, for `pnpm test:cluster`: the queues
 * through the worker runtime (job logs, duration metrics), the login
 * throttle, the AI cache clear and the acquirer webhook's rate limiter, each
 * through the API as a user meets it. `nodes` lists the data nodes (for
 * SCRIPT FLUSH on each).
 */
export function redisBehaviour(topology: string, redisUrl: string, nodes: () => Promise<{ ask(command: string, ...args: string[]): Promise<unknown> }[]>): void {
  const prefix = `${testQueuePrefix()}${topology}`;
  const env = { REDIS_URL: redisUrl, QUEUE_PREFIX: prefix };

  describe(`${topology}: queues`, () => {
    let connections: Connections;

    beforeAll(async () => {
      connections = openConnections(testConfig(env), "redis-probe");
      // Connected to every master before the adds (asked again while the client is still connecting): their
      // 5 s limit is for a Redis that is away, not for a cold connection on a machine other test runs load.
      const reached = () => pingEveryMaster(connections.redis, 5000).then(() => true, () => false);
      await until(reached, () => "the connection to reach every master", 30_000);
    });

    afterAll(async () => {
      await Promise.all(connections.queues.all().map((queue) => queue.obliterate({ force: true })));
      await connections.close();
    });

    it("every queue adds and completes a job (a delayed one too), with its log rows and duration metrics", async () => {
      const workers = startWorkers(connections, CATALOG, [...QUEUE_NAMES]);
      try {
        await Promise.all(PROBES.map((job, n) => connections.queues.add(job, { n }, { jobId: `probe.${n}` })));
        await connections.queues.add(PROBES[1]!, { n: 100 }, { jobId: "probe.delayed", delay: 300 });
        const finished = () => Promise.all(connections.queues.all().map((queue) => queue.getJobCounts("completed", "failed")));
        await until(async () => (await finished()).reduce((sum, counts) => sum + counts.completed! + counts.failed!, 0) === PROBES.length + 1, () => "every probe to finish");

        for (const [n, job] of PROBES.entries()) {
          const queue = connections.queues.get(job.queue);
          const stored = (await queue.getJob(`probe.${n}`))!;
          expect(stored.returnvalue, job.queue).toBe(n * 2);
          const { logs } = await queue.getJobLogs(`probe.${n}`);
          expect(logs.map((row) => row.replace(/^\d\d:\d\d:\d\d /, "")), job.queue).toEqual(["INFO job started", `INFO doubling n=${n}`, expect.stringMatching(/^INFO job completed duration_ms=\d+$/)]);
        }
        expect((await connections.queues.get(PROBES[1]!.queue).getJob("probe.delayed"))!.returnvalue).toBe(200);
        const metrics = await renderJobDurations(connections.redis, prefix);
        for (const queue of QUEUE_NAMES) {
          const expected = queue === PROBES[1]!.queue ? 2 : 1;
          expect(metrics, queue).toContain(`mw_job_duration_seconds_bucket{queue="${queue}",state="completed",le="+Inf"} ${expected}`);
        }
      } finally {
        await workers.close();
      }
    });
  });

  describe(`${topology}: through the API`, () => {
    let api: TestApi;
    let admin: string;

    beforeAll(async () => {
      api = await startApi({ ...env, LOGIN_FAILURES_PER_LOGIN: "3", LOGIN_FAILURES_PER_IP: "6", LOGIN_FAILURE_WINDOW_SECONDS: "60", WEBHOOK_RATE_LIMIT_PER_MINUTE: "3" });
      admin = await userWith(api, "manage_options");
    });

    afterAll(() => api.close());

    async function attempt(login: string, password: string, address: string) {
      const res = await postFrom(address, `${api.url}/middleware/v1/auth/login`, JSON.stringify({ login, password }));
      return { status: res.status, retryAfter: Number(res.headers["retry-after"]) };
    }

    it("throttles failed logins per login and per address, and a success clears the login's count", async () => {
      const login = uniqueLogin("throttle");
      await createUser(api.ctx, { login, capabilities: ["staff"] });
      await setLoginPassword(api.ctx, login, "the right password");
      // Addresses of their own: the per-address count of one must not reach the other's test.
      for (let i = 0; i < 2; i += 1) expect((await attempt(login, "wrong", "127.0.51.1")).status).toBe(403);
      expect((await attempt(login, "the right password", "127.0.51.1")).status).toBe(200);
      for (let i = 0; i < 3; i += 1) expect((await attempt(login, "wrong", "127.0.51.2")).status).toBe(403);
      const refused = await attempt(login, "the right password", "127.0.51.3");
      expect(refused.status).toBe(429);
      expect(refused.retryAfter).toBeGreaterThan(50);
      expect(refused.retryAfter).toBeLessThanOrEqual(60);

      for (let i = 0; i < 6; i += 1) expect((await attempt(uniqueLogin("guess"), "guess", "127.0.51.4")).status).toBe(403);
      const other = uniqueLogin("victim");
      await createUser(api.ctx, { login: other, capabilities: ["staff"] });
      await setLoginPassword(api.ctx, other, "victim password");
      expect((await attempt(other, "victim password", "127.0.51.4")).status).toBe(429);
      expect((await attempt(other, "victim password", "127.0.51.5")).status).toBe(200);
    });

    it("clears every cached urgency result, wherever its key lives", async () => {
      async function act(action: string, fields: Record<string, unknown> = {}) {
        const res = await fetch(`${api.url}/admin-ajax`, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: JSON.stringify({ action, ...fields }) });
        const body = (await res.json()) as { success: boolean; data: Record<string, unknown> };
        expect(body.success, `${action}: ${JSON.stringify(body)}`).toBe(true);
        return body.data;
      }
      const tickets = Array.from({ length: 12 }, (_, i) => ({ subject: `Checkout down ${i}`, body: `Nobody can pay (${i}).`, client_name: "ACME" }));
      for (const ticket of tickets) expect(await act("test_ticket_urgency", ticket)).toMatchObject({ cached: false });
      for (const ticket of tickets) expect(await act("test_ticket_urgency", ticket)).toMatchObject({ cached: true });
      expect((await act("ai_clear_cache")).cleared).toBeGreaterThanOrEqual(tickets.length);
      for (const ticket of tickets) expect(await act("test_ticket_urgency", ticket)).toMatchObject({ cached: false });
    });

    it("limits acquirer webhooks per address, also after SCRIPT FLUSH on every node", async () => {
      let delivery = 0;
      const send = async (address: string) => {
        delivery += 1;
        const res = await postFrom(address, `${api.url}/middleware/v1/webhooks/acquirer`, disputePayload(`${prefix}-limit-${delivery}`, "4242", `A${delivery}`, "2026-10-01"));
        return res.status;
      };
      // Several addresses: their counters sit on different nodes of a cluster.
      const addresses = Array.from({ length: 6 }, (_, i) => `127.0.113.${i + 1}`);
      for (const address of addresses) {
        expect(await Promise.all([send(address), send(address), send(address)]), address).toEqual([202, 202, 202]);
        expect(await send(address), address).toBe(429);
      }
      for (const node of await nodes()) await node.ask("SCRIPT", "FLUSH");
      for (const address of addresses) expect(await send(address), address).toBe(429);
      const fresh = Array.from({ length: 6 }, (_, i) => `127.0.114.${i + 1}`);
      for (const address of fresh) {
        expect(await Promise.all([send(address), send(address), send(address)]), address).toEqual([202, 202, 202]);
        expect(await send(address), address).toBe(429);
      }
    });
  });
}
