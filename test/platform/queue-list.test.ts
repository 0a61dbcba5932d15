import { createRedis } from "@mw/platform";
import { processDisputeJob } from "@mw/domains/disputes";
import { inventorySyncJob } from "@mw/domains/inventory";
import { orderExportJob, ordersImportJob, orderVerifyJob } from "@mw/domains/orders";
import { Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { until } from "../support/wait.ts";

let api: TestApi;
let admin: string;
let siteId: number;
const RUN = `${process.pid}${Date.now() % 100000}`;

beforeAll(async () => {
  api = await startApi();
  admin = await userWith(api, "manage_middleware");
  siteId = (await api.ctx.prisma.site.create({ data: { name: "Queue shop", platform: "storefront_a", site_url: "https://queue.example" } })).id;
});
afterAll(() => api.close());

async function list(query: string) {
  const res = await restCall(`${api.url}/middleware/v1/queue?${query}`, "GET", undefined, admin);
  return res as unknown as { status: number; body: { jobs: Record<string, unknown>[] } & Record<string, unknown> };
}

const mine = (jobs: Record<string, unknown>[], id: string) => jobs.find((job) => job.id === id);

describe("GET /queue (spec 1, 2.7 and 3.1)", () => {
  it("lists pending jobs with the spec's job types, their site and what they are about", async () => {
    const { queues } = api.ctx;
    await queues.add(orderExportJob, { order_id: 7, order_number: `A-${RUN}`, site_id: siteId }, { jobId: `q-order-${RUN}`, delay: 60_000 });
    await queues.add(processDisputeJob, { webhook_id: 9, event_id: `acquirer_case_${RUN}` }, { jobId: `q-dispute-${RUN}`, delay: 60_000 });
    await queues.add(inventorySyncJob, { site_id: siteId, product_ids: ["205"] }, { jobId: `q-stock-${RUN}`, delay: 60_000, priority: 3 });
    await queues.add(orderVerifyJob, { order_id: 7, order_number: `A-${RUN}`, site_id: siteId }, { jobId: `q-verify-${RUN}`, delay: 60_000 });
    await queues.add(ordersImportJob, { site_id: siteId }, { jobId: `q-import-${RUN}`, delay: 60_000 });

    const orders = await list("queue=orders&status=pending&per_page=100");
    expect(orders.status).toBe(200);
    expect(mine(orders.body.jobs, `q-order-${RUN}`)).toEqual({
      id: `q-order-${RUN}`,
      queue: "orders",
      job_type: "order_export",
      status: "pending",
      priority: 0,
      site_id: siteId,
      description: `Export order A-${RUN} of site ${siteId} (Queue shop) to the ERP`,
      attempts_made: 0,
      progress: 0,
      failed_reason: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      started_at: null,
      completed_at: null,
      locked_by: null,
    });
    expect(mine(orders.body.jobs, `q-verify-${RUN}`)).toMatchObject({ job_type: "order_verify", site_id: siteId, description: `Verify order A-${RUN} of site ${siteId} (Queue shop) against the ERP` });
    expect(mine(orders.body.jobs, `q-import-${RUN}`)).toMatchObject({ job_type: "orders_import", site_id: siteId, description: `Import new and changed orders of site ${siteId} (Queue shop)` });
    expect(mine((await list("queue=disputes&status=pending&per_page=100")).body.jobs, `q-dispute-${RUN}`)).toMatchObject({
      job_type: "process_dispute",
      site_id: null,
      description: `Match dispute acquirer_case_${RUN}`,
    });
    expect(mine((await list("queue=inventory&status=pending&per_page=100")).body.jobs, `q-stock-${RUN}`)).toMatchObject({
      job_type: "inventory_sync",
      priority: 3,
      site_id: siteId,
      description: `Stock of product 205 on site ${siteId} (Queue shop)`,
    });
  });

  it("shows the worker holding a processing job, then its start and completion times and no lock once completed", async () => {
    const queue = api.ctx.queues.get("reports");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const worker = new Worker("reports", () => held, { connection: createRedis(api.ctx.config.REDIS_URL, { blocking: true }), prefix: api.ctx.config.QUEUE_PREFIX, name: `probe-host:${RUN}` });
    try {
      const job = await queue.add("inventory-sync-summary", { report_id: 1, description: `inventory-sync-summary:${RUN}` }, { jobId: `q-report-${RUN}` });
      let processing: Record<string, unknown> | undefined;
      await until(async () => (processing = mine((await list("queue=reports&status=processing")).body.jobs, job.id!)) !== undefined, () => "the job to be taken");
      expect(processing).toMatchObject({ status: "processing", job_type: "inventory_sync_summary", locked_by: `probe-host:${RUN}`, description: `inventory-sync-summary:${RUN}`, completed_at: null });
      expect(processing!.started_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      release();
      let completed: Record<string, unknown> | undefined;
      await until(async () => (completed = mine((await list("queue=reports&status=completed&per_page=100")).body.jobs, job.id!)) !== undefined, () => "the job to complete");
      expect(completed).toMatchObject({ status: "completed", locked_by: null, started_at: processing!.started_at });
      expect(completed!.completed_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    } finally {
      release();
      await worker.close();
    }
  });

  it("refuses a status outside the spec's vocabulary", async () => {
    const res = await list("queue=orders&status=waiting");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "rest_invalid_param", data: { status: 400 } });
  });
});
