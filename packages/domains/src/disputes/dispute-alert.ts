import type { DisputeDetails } from "./details.ts";
import type { GatewayTransaction } from "@mw/providers/gateway";

/** Candidates listed in the alert e-mail; the rest is counted. */
const ALERT_CANDIDATES = 20;

/** The e-mail sent when several transactions match the card digits and the first is linked as a fallback. */
export function alertFor(details: DisputeDetails, candidates: GatewayTransaction[], range: string): { subject: string; text: string } {
  const { caseId, mid, authCode, card } = details;
  const lines = candidates.slice(0, ALERT_CANDIDATES).map((tx) => {
    const sale = tx.action[0];
    return `- transaction ${tx.transaction_id}, order ${tx.order_id || "(none)"}, card ${tx.cc_bin}/${tx.cc_number}, ${sale ? `${sale.action_type} ${sale.amount} at ${sale.date}` : "no actions"}`;
  });
  if (candidates.length > ALERT_CANDIDATES) lines.push(`- and ${candidates.length - ALERT_CANDIDATES} more`);
  return {
    subject: `Dispute ${caseId}: ${candidates.length} gateway transactions match, first one linked`.slice(0, 200),
    text: [
      `Dispute ${caseId}${details.caseNumber ? ` (case number ${details.caseNumber})` : ""} for MID ${mid} matches ${candidates.length} gateway transactions`,
      `with auth code ${authCode} between ${range} and card digits ${card.first6 ?? "??????"}...${card.last4 ?? "????"}.`,
      "",
      `The first, transaction ${candidates[0]!.transaction_id}, was linked as a fallback. Please check the linkage.`,
      "",
      "Candidates:",
      ...lines,
    ].join("\n"),
  };
}
