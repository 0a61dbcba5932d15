import { AppError } from "@mw/platform";
import type { DisputeDetails } from "@mw/shared/disputes";
import type { JobContext } from "../../runtime/processor.ts";
import type { ActionLog } from "./action-log.ts";
import { query } from "./sql.ts";

export interface DisputeWebhook {
  id: number;
  payload: string;
}

/** The job's webhook row. Anything but a stored acquirer delivery can never be processed, so that fails permanently. */
export async function loadDisputeWebhook(ctx: JobContext, webhookId: number): Promise<DisputeWebhook> {
  const [webhook] = await query<{ id: number; source: string; payload: string }[]>(ctx, "SELECT id, source, payload FROM webhook_events WHERE id = ?", [webhookId]);
  if (webhook?.source !== "acquirer") throw AppError.permanent(`webhook ${webhookId} is not a stored acquirer dispute`, "dispute_not_found");
  return { id: webhook.id, payload: webhook.payload };
}

export function recordDetails(steps: ActionLog, details: DisputeDetails): void {
  steps.info("details", `Dispute read: MID ${details.mid}, auth code ${details.authCode}, transaction date ${details.transactionDate}, amount ${details.amount ?? "unknown"}`, {
    transaction_date: details.transactionDate,
    card_first6: details.card.first6,
    card_last4: details.card.last4,
  });
}
