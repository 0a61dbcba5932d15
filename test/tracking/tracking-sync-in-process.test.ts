import { runTrackingSync } from "@mw/domains/tracking";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInProcessSync, type InProcessSync } from "../support/in-process-sync.ts";
import { exportedOrder, itemLines, storefrontASite } from "../support/storefront-sites.ts";

// The tracking domain's use case called directly, without a worker process:
// real MariaDB and Redis, fakes of BigCommerce and the ERP.
let sync: InProcessSync;

beforeAll(async () => {
  sync = await startInProcessSync("tracking-in-process");
});

afterAll(async () => {
  await sync.close();
});

describe("runTrackingSync in process", () => {
  it("posts the ERP's tracking number, completes the order, and a second run finds it posted", async () => {
    const { siteId, store } = await storefrontASite(sync.deps.prisma, sync.key, sync.fakeA);
    const order = store.addOrder({ status_id: 9, lines: [{ sku: "MUG-1", quantity: 2 }] });
    const salesOrder = `SO-${process.pid}-in-process`;
    await exportedOrder(sync.deps.prisma, siteId, String(order.id), salesOrder);
    sync.erp.addShipment({ orderNumber: salesOrder, shipmentDate: "2026-11-18", shippingAgentCode: "ups", packageTrackingNo: "1Z999AA10123456784", salesShipmentLines: itemLines({ "MUG-1": 2 }) });
    const job = { id: "tracking-in-process.1", ends: () => true };

    const first = await runTrackingSync(sync.deps, job, siteId);
    expect(first).toMatchObject({ counts: { orders: 1, shipments_created: 1, completed: 1, errors: 0 } });
    expect(order.shipments).toMatchObject([{ tracking_number: "1Z999AA10123456784", tracking_carrier: "ups" }]);
    expect(sync.progress.at(-1)).toEqual([1, 1, "orders"]);
    expect(await sync.deps.prisma.syncRun.findFirstOrThrow({ where: { site_id: siteId, kind: "tracking" }, orderBy: { id: "desc" } })).toMatchObject({ status: "completed", job_id: job.id });

    order.status_id = 9;
    const second = await runTrackingSync(sync.deps, { ...job, id: "tracking-in-process.2" }, siteId);
    expect(second).toMatchObject({ counts: { orders: 1, shipments_created: 0, already_posted: 1 } });
    expect(order.shipments).toHaveLength(1);
  });

  it("ends quietly for a site that no longer exists", async () => {
    expect(await runTrackingSync(sync.deps, { id: undefined, ends: () => true }, 999_999_999)).toEqual({ skipped: "site_not_found" });
  });
});
