import { setTimeout as sleep } from "node:timers/promises";

/** One acquirer dispute webhook for sale `i` of the seeded gateway account. */
export function disputePayload(caseId: string, mid: string, authCode: string, saleDate: string): string {
  return JSON.stringify({
    event_type: "dispute.created",
    timestamp: new Date().toISOString(),
    api_response: JSON.stringify({ case_id: caseId, case_number: `N-${caseId}` }),
    request_payload: JSON.stringify({ mid: `00${mid}`, auth_code: authCode, transaction_date: saleDate, amount: "49.90", card_number: "411111******1111", reason_code: "10.4" }),
    account_id: mid,
  });
}

/**
 * Delivers one webhook as the acquirer does: again and again until the
 * platform has stored it (202, 200 for a repeat, or 503 "stored but not
 * queued", which the outbox sweep owns from then on). A 500 or a refused
 * connection means nothing was stored, so it is delivered again.
 */
export async function deliver(url: string, body: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const status = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body, signal: AbortSignal.timeout(10_000) }).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 202 || status === 200 || status === 503) return true;
    await sleep(300);
  }
  return false;
}

/** Sends `bodies` spread over `spreadMs`, each until stored; answers how many were stored. */
export async function sendSpread(url: string, bodies: string[], spreadMs: number, deadline: number): Promise<number> {
  const results = await Promise.all(
    bodies.map(async (body, i) => {
      await sleep((spreadMs * i) / bodies.length);
      return deliver(url, body, deadline);
    }),
  );
  return results.filter(Boolean).length;
}
