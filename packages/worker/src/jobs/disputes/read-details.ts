import type { DisputeDetails } from "@mw/domains/disputes";
import type { ActionLog } from "./action-log.ts";

export function recordDetails(steps: ActionLog, details: DisputeDetails): void {
  steps.info("details", `Dispute read: MID ${details.mid}, auth code ${details.authCode}, transaction date ${details.transactionDate}, amount ${details.amount ?? "unknown"}`, {
    transaction_date: details.transactionDate,
    card_first6: details.card.first6,
    card_last4: details.card.last4,
  });
}
