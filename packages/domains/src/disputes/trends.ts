import type { Connections } from "@mw/platform/connections";
import { acquirerTrends, listAcquirerEvents } from "../webhooks/index.ts";
import { disputeStateOf, eventFilter } from "./lifecycle.ts";

/**
 * Disputes per UTC hour since `since`: received, matched and failed (by the
 * hour processing ended, with the states GET /disputes filters by), and the
 * average seconds from the webhook's receipt to the end of processing.
 */
export async function disputeTrends(deps: Pick<Connections, "replica">, since: Date) {
  const trends = await acquirerTrends(deps, since);
  const matched = new Map<string, number>();
  const failed = new Map<string, number>();
  for (const row of trends.finished) {
    const state = disputeStateOf(row.outcome);
    const into = state === "matched" ? matched : state === "failed" ? failed : null;
    into?.set(row.hour, (into.get(row.hour) ?? 0) + row.count);
  }
  return { received: trends.received, matched, failed, processingSeconds: trends.processingSeconds };
}

/** Disputes that ended failed at or after `since`: the total of GET /disputes?state=failed&processed_since=. */
export async function failedDisputeCount(deps: Pick<Connections, "replica">, since: Date): Promise<number> {
  return (await listAcquirerEvents(deps, eventFilter({ state: "failed", processed_from: since }), { skip: 0, take: 0 })).total;
}
