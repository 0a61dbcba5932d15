import type { DisputeDetails } from "@mw/shared/disputes";
import { truncateCodePoints } from "@mw/shared";
import type { FraudSubmission } from "@mw/shared/providers/fraud";
import type { GatewayTransaction } from "@mw/shared/providers/gateway";
import type { JobContext } from "../../runtime/processor.ts";
import type { ActionLog, LogEntry } from "./action-log.ts";
import { upsertOnce } from "./upsert-once.ts";

/** What an earlier run of the case stored. */
export interface StoredChargeback {
  fraud_submitted_at: Date | null;
  action_log: string;
}

export interface ChargebackRecord {
  /** The raw webhook body. */
  acquirerData: string;
  details: DisputeDetails;
  tx: GatewayTransaction;
  orderNumber: string | null;
  submission: FraudSubmission | null;
}

export async function findChargeback(ctx: JobContext, caseId: string): Promise<StoredChargeback | null> {
  return ctx.prisma.chargeback.findUnique({ where: { case_id: caseId }, select: { fraud_submitted_at: true, action_log: true } });
}

/** Stores the case's chargeback; its action log is the earlier runs' entries followed by this run's. */
export async function storeChargeback(ctx: JobContext, steps: ActionLog, previous: StoredChargeback | null, record: ChargebackRecord): Promise<void> {
  steps.info("chargeback", previous ? "Chargeback record updated" : "Chargeback record stored");
  const { details, tx, submission } = record;
  const data = {
    mid: details.mid,
    gateway_transaction_id: truncateCodePoints(tx.transaction_id, 64),
    order_number: record.orderNumber,
    amount: details.amount,
    reason_code: details.reasonCode,
    reason_desc: details.reasonDesc,
    acquirer_data: record.acquirerData,
    action_log: JSON.stringify([...parseLog(previous?.action_log), ...steps.entries]),
    ...(submission && { fraud_response: JSON.stringify(submission.response), fraud_submitted_at: new Date() }),
  };
  await upsertOnce(() =>
    ctx.prisma.chargeback.upsert({ where: { case_id: details.caseId }, create: { case_id: details.caseId, ...data }, update: data, select: { id: true } }),
  );
}

function parseLog(text: string | undefined): LogEntry[] {
  if (!text) return [];
  try {
    const entries: unknown = JSON.parse(text);
    return Array.isArray(entries) ? (entries as LogEntry[]) : [];
  } catch {
    return [];
  }
}
