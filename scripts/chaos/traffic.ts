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

/** How a client sends one request: where, with which headers, and which answers end its retrying. */
export interface Sender {
  url: string;
  headers?: Record<string, string>;
  done(status: number): boolean;
}

/**
 * The acquirer: a webhook is delivered again until the platform stored it
 * (202, 200 for a repeat, or 503 "stored but not queued", which the outbox
 * sweep owns from then on). A 500 or a refused connection stored nothing.
 */
export const acquirer = (url: string): Sender => ({ url, done: (status) => status === 202 || status === 200 || status === 503 });

/**
 * A storefront submitting orders: again until the order is stored and its
 * export queued (201, or 200 for the same order again). A 503 means stored
 * but not queued, and a retry queues it at once, so the storefront retries.
 */
export const storefront = (url: string, key: string): Sender => ({ url, headers: { authorization: `Bearer ${key}` }, done: (status) => status === 201 || status === 200 });

/** Sends one request until `sender` is done with it; answers the last status (0: gave up at the deadline). */
export async function deliver(sender: Sender, body: string, deadline: number): Promise<number> {
  while (Date.now() < deadline) {
    const status = await fetch(sender.url, { method: "POST", headers: { "content-type": "application/json", ...sender.headers }, body, signal: AbortSignal.timeout(10_000) }).then(
      (res) => res.status,
      () => 0,
    );
    if (sender.done(status)) return status;
    await sleep(300);
  }
  return 0;
}

/** Sends `bodies` spread over `spreadMs`, each until done; answers each one's final status. */
export function sendSpread(sender: Sender, bodies: string[], spreadMs: number, deadline: number): Promise<number[]> {
  return Promise.all(
    bodies.map(async (body, i) => {
      await sleep((spreadMs * i) / bodies.length);
      return deliver(sender, body, deadline);
    }),
  );
}
