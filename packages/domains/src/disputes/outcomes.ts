/**
 * How a dispute ended, stored in `webhook_events.outcome` (docs/decisions.md):
 * the match results of spec 1, 3.2, then why a dispute could not be processed.
 * The order is the order reports list them in.
 */
export const DISPUTE_OUTCOMES = {
  linked: "One gateway transaction had the auth code; linked",
  linked_card: "Several had the auth code; the card digits left one; linked",
  linked_fallback: "Several matched the card digits; alert sent, first one linked",
  no_gateway_result: "No gateway transaction had the auth code",
  no_match: "No transaction with the auth code had the card digits",
  no_account: "No gateway account for the merchant id",
  invalid_dispute: "The dispute lacked what matching needs",
  failed: "Processing failed",
} as const;

export type DisputeOutcome = keyof typeof DISPUTE_OUTCOMES;
