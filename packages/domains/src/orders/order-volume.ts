import type { Connections } from "@mw/platform/connections";
import { orderVolumeSites } from "../sites/index.ts";

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;
/** The same weekday and time of day, 1 to 4 weeks before the run. */
const WEEKS_BACK = [1, 2, 3, 4] as const;

type OrderVolumeStatus = "SUCCESS" | "FAILURE";

/**
 * One site's test. The counts stay in the job's result, log and e-mail; the
 * public endpoint shows only `site`, `status` and `message` (design 10.8).
 */
export interface OrderVolumeResult {
  site: string;
  site_id: number;
  status: OrderVolumeStatus;
  message: string;
  window_hours: number;
  orders: number;
  minimum: number;
  /** Mean of the four windows 7, 14, 21 and 28 days earlier. */
  weekday_average: number;
}

const ORDER_VOLUME_MESSAGES = {
  normal: "Order volume is normal",
  belowMinimum: "Fewer orders than the minimum",
  belowUsual: "Order volume fell below half of the usual level for this weekday",
} as const;

/** Orders received (stored here: `created_at`) in the `hours` before `end`. */
function countWindow(deps: Pick<Connections, "replica">, siteId: number, end: Date, hours: number): Promise<number> {
  return deps.replica.order.count({ where: { site_id: siteId, created_at: { gt: new Date(end.getTime() - hours * HOUR), lte: end } } });
}

/** The verdict: the minimum is checked first, as it is the site's own explicit floor. */
function judgeOrderVolume(orders: number, minimum: number, weekdayAverage: number): { status: OrderVolumeStatus; message: string } {
  if (orders < minimum) return { status: "FAILURE", message: ORDER_VOLUME_MESSAGES.belowMinimum };
  if (orders < weekdayAverage / 2) return { status: "FAILURE", message: ORDER_VOLUME_MESSAGES.belowUsual };
  return { status: "SUCCESS", message: ORDER_VOLUME_MESSAGES.normal };
}

/**
 * Spec 2, 4.2 order-volume tests (design 10.8: every active storefront site,
 * whatever its order source), by site name. Each site's window is its own
 * `order_volume_window_hours`, compared with its `order_volume_min` and with
 * the same window 1 to 4 weeks earlier. Counts over hours tolerate lag: read
 * from the replica.
 */
export async function runOrderVolumeTests(deps: Pick<Connections, "replica">, now: Date): Promise<OrderVolumeResult[]> {
  const sites = await orderVolumeSites({ prisma: deps.replica });
  const results: OrderVolumeResult[] = [];
  for (const site of sites) {
    const hours = site.order_volume_window_hours;
    const [orders, ...earlier] = await Promise.all([
      countWindow(deps, site.id, now, hours),
      ...WEEKS_BACK.map((weeks) => countWindow(deps, site.id, new Date(now.getTime() - weeks * WEEK), hours)),
    ]);
    const weekdayAverage = earlier.reduce((sum, count) => sum + count, 0) / WEEKS_BACK.length;
    results.push({
      site: site.name,
      site_id: site.id,
      ...judgeOrderVolume(orders!, site.order_volume_min, weekdayAverage),
      window_hours: hours,
      orders: orders!,
      minimum: site.order_volume_min,
      weekday_average: weekdayAverage,
    });
  }
  return results;
}

/** The alert e-mail of a run's failures, with the numbers; null when every site passed. */
export function orderVolumeAlert(results: readonly OrderVolumeResult[], now: Date): { subject: string; text: string } | null {
  const failures = results.filter((result) => result.status === "FAILURE");
  if (failures.length === 0) return null;
  const lines = failures.map(
    (f) =>
      `- ${f.site} (site ${f.site_id}): ${f.message}. ${f.orders} order(s) in the last ${f.window_hours} h; ` +
      `minimum ${f.minimum}; same weekday average of the last four weeks ${f.weekday_average} (half: ${f.weekday_average / 2}).`,
  );
  return {
    subject: `Order volume: ${failures.length} site(s) failed the test`,
    text: [`Order-volume test of ${now.toISOString()}: ${failures.length} of ${results.length} active site(s) failed.`, "", ...lines].join("\n"),
  };
}
