import { cardMatches, type GatewayTransaction, type QueryWindow } from "@mw/providers/gateway";
import type { DisputeDetails } from "./details.ts";

const DAY_MS = 86_400_000;
/** Spec 1, section 8: the gateway is asked for plus/minus 2 days around the transaction date. */
const WINDOW_DAYS = 2;

/** Which gateway transaction a dispute is linked to, if any; `candidates` are those the choice was made among. */
export type TransactionMatch =
  | { outcome: "no_gateway_result" | "no_match"; transaction?: undefined }
  | { outcome: "linked" | "linked_card" | "linked_fallback"; transaction: GatewayTransaction; candidates: GatewayTransaction[] };

/** Whole UTC days: the transaction date may be the acquirer's local day, and gateway times are UTC. */
export function windowAround(day: string): QueryWindow {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  return { start: new Date(midnight - WINDOW_DAYS * DAY_MS), end: new Date(midnight + (WINDOW_DAYS + 1) * DAY_MS - 1000) };
}

/** Spec 1, 3.2: one auth-code match is linked; several are narrowed by card digits; several left means alert and the first. */
export function chooseTransaction(matches: GatewayTransaction[], card: DisputeDetails["card"]): TransactionMatch {
  if (matches.length === 0) return { outcome: "no_gateway_result" };
  if (matches.length === 1) return { outcome: "linked", transaction: matches[0]!, candidates: matches };
  const byCard = matches.filter((tx) => cardMatches(tx, card));
  if (byCard.length === 0) return { outcome: "no_match" };
  return { outcome: byCard.length === 1 ? "linked_card" : "linked_fallback", transaction: byCard[0]!, candidates: byCard };
}

/** The action log's `match` entry; `matched` is how many transactions had the auth code. */
export function matchMessage(match: TransactionMatch, matched: number): string {
  if (!match.transaction) {
    return match.outcome === "no_gateway_result" ? "No gateway transaction has the auth code; nothing linked" : `None of the ${matched} transactions has the dispute's card digits; nothing linked`;
  }
  const id = match.transaction.transaction_id;
  if (match.outcome === "linked") return `One transaction has the auth code: ${id}`;
  if (match.outcome === "linked_card") return `${matched} transactions have the auth code; the card digits leave one: ${id}`;
  return `${matched} transactions have the auth code and ${match.candidates.length} the card digits; the first, ${id}, is used as fallback`;
}
