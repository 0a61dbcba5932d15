import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleUser, signIn, useConsole } from "../support/console.ts";

// The operations page's charts and failure counts against the database they
// are drawn from, and against the lists they link to.
const ui = useConsole();
const HOUR = 3_600_000;
const RUN = `T${process.pid % 10000}${Date.now() % 100000}`;
let siteId: number;

/** The UTC hour bucket `YYYY-MM-DD HH` of a time, as the page labels its bars. */
const hourOf = (date: Date) => date.toISOString().slice(0, 13).replace("T", " ");

function tally(dates: Date[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const date of dates) counts.set(hourOf(date), (counts.get(hourOf(date)) ?? 0) + 1);
  return counts;
}

beforeAll(async () => {
  const { prisma } = ui.api.ctx;
  siteId = (await prisma.site.create({ data: { name: `Trends ${RUN}`, platform: "storefront_a", site_url: "https://trends.example" } })).id;
  const now = Date.now();
  // Orders over the last two days: some exported, some verified, some failed (one failure 3 days ago: in the week, not the day).
  for (let i = 0; i < 12; i += 1) {
    const created = new Date(now - i * 4 * HOUR - 5 * 60_000);
    const exported = i % 3 === 0 ? new Date(created.getTime() + 2 * 60_000) : null;
    const failed = i % 4 === 1 ? new Date(created.getTime() + 60_000) : null;
    await prisma.order.create({
      data: {
        site_id: siteId,
        number: `${RUN}-${i}`,
        dateadded: created,
        payment_method: "pay_1",
        contact_id: 1,
        shipping_agent_code: "UPS",
        shipping_agent_service: "GROUND",
        payload_hash: "e".repeat(64),
        created_at: created,
        ...(exported && { imported: 1, imported_at: exported, erp_sales_order_number: `SO-${RUN}-${i}` }),
        ...(failed && { failed_at: failed, failure: "ERP request failed: 503" }),
      },
    });
  }
  await prisma.order.create({
    data: {
      site_id: siteId,
      number: `${RUN}-old`,
      dateadded: new Date(now - 72 * HOUR),
      payment_method: "pay_1",
      contact_id: 1,
      shipping_agent_code: "UPS",
      shipping_agent_service: "GROUND",
      payload_hash: "e".repeat(64),
      created_at: new Date(now - 72 * HOUR),
      failed_at: new Date(now - 72 * HOUR),
      failure: "The field Customer No. must have a value.",
    },
  });
  // Disputes: matched, unmatched, failed and open, received over the last day.
  const outcomes = ["linked", "linked_card", "no_match", "failed", "no_account", null, "linked", "invalid_dispute"];
  for (const [i, outcome] of outcomes.entries()) {
    const received = new Date(now - i * 3 * HOUR - 60_000);
    await prisma.webhookEvent.create({
      data: {
        source: "acquirer",
        event_type: "dispute.created",
        event_id: `acquirer_case_${RUN}${i}`,
        payload: "{}",
        payload_hash: "f".repeat(64),
        received_at: received,
        ...(outcome && { outcome, processed_at: new Date(received.getTime() + (i + 1) * 1500) }),
      },
    });
  }
  await prisma.syncRun.create({ data: { site_id: siteId, kind: "tracking", status: "failed", error: "storefront refused the credentials (401)", started_at: new Date(now - 2 * HOUR), finished_at: new Date(now - 2 * HOUR) } });
  await prisma.syncRun.create({ data: { site_id: siteId, kind: "inventory", status: "failed", error: "ERP request failed: 503", started_at: new Date(now - 100 * HOUR), finished_at: new Date(now - 100 * HOUR) } });
});

afterAll(async () => {
  const { prisma } = ui.api.ctx;
  await prisma.webhookEvent.deleteMany({ where: { event_id: { startsWith: `acquirer_case_${RUN}` } } });
  await prisma.syncRun.deleteMany({ where: { site_id: siteId } });
  await prisma.order.deleteMany({ where: { site_id: siteId } });
  await prisma.site.delete({ where: { id: siteId } });
});

describe("operations page trends", () => {
  it("draws each hour's numbers as the database holds them, counts failures as the linked lists do, and fits 375 px", async () => {
    const { prisma } = ui.api.ctx;
    const page = await (await ui.newContext({ viewport: { width: 375, height: 800 } })).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["manage_middleware"]));
    await page.goto(`${ui.api.url}/console/operations`);

    async function bars(id: string): Promise<Map<string, number>> {
      const entries = await page.locator(`#${id} rect.bar`).evaluateAll((rects) => rects.map((rect) => [rect.getAttribute("data-hour")!, Number(rect.getAttribute("data-value"))] as const));
      expect(entries).toHaveLength(24);
      return new Map(entries.filter(([, value]) => value !== 0));
    }
    const hours = [...(await page.locator("#chart-orders-received rect.bar").evaluateAll((rects) => rects.map((rect) => rect.getAttribute("data-hour")!)))];
    const since = new Date(`${hours[0]!.replace(" ", "T")}:00:00Z`);
    expect(hours.at(-1)).toBe(hourOf(new Date()));

    const orders = await prisma.order.findMany({ where: { OR: [{ created_at: { gte: since } }, { imported_at: { gte: since } }, { failed_at: { gte: since } }] } });
    expect(await bars("chart-orders-received")).toEqual(tally(orders.filter((o) => o.created_at >= since).map((o) => o.created_at)));
    expect(await bars("chart-orders-exported")).toEqual(tally(orders.filter((o) => o.imported_at && o.imported_at >= since).map((o) => o.imported_at!)));
    expect(await bars("chart-orders-failed")).toEqual(tally(orders.filter((o) => o.failed_at && o.failed_at >= since && o.verified === 0).map((o) => o.failed_at!)));

    const events = await prisma.webhookEvent.findMany({ where: { source: "acquirer", OR: [{ received_at: { gte: since } }, { processed_at: { gte: since } }] } });
    const finished = (outcomes: string[]) => events.filter((e) => e.processed_at && e.processed_at >= since && outcomes.includes(e.outcome ?? "")).map((e) => e.processed_at!);
    expect(await bars("chart-disputes-received")).toEqual(tally(events.filter((e) => e.received_at >= since).map((e) => e.received_at)));
    expect(await bars("chart-disputes-matched")).toEqual(tally(finished(["linked", "linked_card", "linked_fallback"])));
    expect(await bars("chart-disputes-failed")).toEqual(tally(finished(["failed", "no_account", "invalid_dispute"])));
    // Average seconds from receipt to processed, per hour processed.
    const latency = new Map<string, number[]>();
    for (const e of events.filter((row) => row.processed_at && row.processed_at >= since)) {
      const hour = hourOf(e.processed_at!);
      latency.set(hour, [...(latency.get(hour) ?? []), (e.processed_at!.getTime() - e.received_at.getTime()) / 1000]);
    }
    const averages = await bars("chart-dispute-latency");
    for (const [hour, seconds] of latency) expect(averages.get(hour)).toBeCloseTo(seconds.reduce((a, b) => a + b, 0) / seconds.length, 1);
    // Average minutes from arrival to export, per hour exported (read with the exports from one index).
    const exportLatency = new Map<string, number[]>();
    for (const o of orders.filter((row) => row.imported_at && row.imported_at >= since)) {
      const hour = hourOf(o.imported_at!);
      exportLatency.set(hour, [...(exportLatency.get(hour) ?? []), (o.imported_at!.getTime() - o.created_at.getTime()) / 60_000]);
    }
    expect(exportLatency.size).toBeGreaterThan(0);
    const exportAverages = await bars("chart-export-latency");
    for (const [hour, minutes] of exportLatency) expect(exportAverages.get(hour) ?? 0).toBeCloseTo(minutes.reduce((a, b) => a + b, 0) / minutes.length, 0);

    // Failures by source: the day's and the week's counts are the totals of the lists they link to.
    const rows = page.locator("#failures-by-source tbody tr");
    expect(await rows.count()).toBe(4);
    const expected: Record<string, [number, number]> = {
      "Order exports and read-backs": [
        await prisma.order.count({ where: { verified: 0, failed_at: { gte: since } } }),
        await prisma.order.count({ where: { verified: 0, failed_at: { gte: new Date(since.getTime() - 6 * 24 * HOUR) } } }),
      ],
      Disputes: [
        await prisma.webhookEvent.count({ where: { source: "acquirer", outcome: { in: ["failed", "no_account", "invalid_dispute"] }, processed_at: { gte: since } } }),
        await prisma.webhookEvent.count({ where: { source: "acquirer", outcome: { in: ["failed", "no_account", "invalid_dispute"] }, processed_at: { gte: new Date(since.getTime() - 6 * 24 * HOUR) } } }),
      ],
      // No export job of these orders is in the queue (their rows were written directly): none is retrying.
      "Order exports and read-backs retrying after a failed attempt": [0, 0],
      "Sync runs": [
        await prisma.syncRun.count({ where: { status: "failed", finished_at: { gte: since } } }),
        await prisma.syncRun.count({ where: { status: "failed", finished_at: { gte: new Date(since.getTime() - 6 * 24 * HOUR) } } }),
      ],
    };
    expect(expected["Order exports and read-backs"]![1]).toBeGreaterThan(expected["Order exports and read-backs"]![0]);
    const links: { source: string; day: number; week: number; dayHref: string; weekHref: string }[] = [];
    for (let i = 0; i < 4; i += 1) {
      const row = rows.nth(i);
      links.push({
        source: (await row.locator("th").textContent())!,
        day: Number(await row.locator("a.failures-day").textContent()),
        week: Number(await row.locator("a.failures-week").textContent()),
        dayHref: (await row.locator("a.failures-day").getAttribute("href"))!,
        weekHref: (await row.locator("a.failures-week").getAttribute("href"))!,
      });
    }
    for (const link of links) {
      expect([link.day, link.week]).toEqual(expected[link.source]);
      // The retrying row links to the console's pending orders, where each row says it is retrying (console-pages.browser.test.ts).
      if (link.dayHref.startsWith("/console/")) continue;
      for (const [href, count] of [[link.dayHref, link.day], [link.weekHref, link.week]] as const) {
        const list = (await (await page.request.get(`${ui.api.url}${href}`)).json()) as { total: number };
        expect(list.total).toBe(count);
      }
    }

    // Readable on a phone: every chart fits the 375 px viewport, and a chart is a link to its list.
    await page.goto(`${ui.api.url}/console/operations`);
    for (const id of ["chart-orders-received", "chart-orders-failed", "chart-disputes-failed", "chart-export-latency"]) {
      const box = (await page.locator(`#${id}`).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    const failedChart = page.locator("a", { has: page.locator("#chart-orders-failed") });
    await failedChart.click();
    await page.waitForURL(/\/orders\?state=failed/);
    const failedList = (await (await page.request.get(page.url())).json()) as { total: number };
    expect(failedList.total).toBe(orders.filter((o) => o.failed_at && o.failed_at >= since && o.verified === 0).length);
  }, 120_000);
});
