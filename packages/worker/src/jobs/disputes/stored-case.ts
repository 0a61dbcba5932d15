import type { DisputeDetails } from "@mw/shared/disputes";
import type { JobContext } from "../../runtime/processor.ts";
import type { StoredChargeback } from "./chargeback.ts";
import { query } from "./sql.ts";

/** What the database holds for a case before this run. */
export interface StoredCase {
  /** The merchant account's gateway security key, still encrypted; null when no account has the MID. */
  securityKey: string | null;
  /** A linkage exists: an earlier run linked the case. */
  linked: boolean;
  chargeback: StoredChargeback | null;
}

/**
 * The merchant account, the linkage and the chargeback of the case in one
 * round trip. Earlier runs' rows are read before the gateway query rather
 * than after it; nothing between the two writes them except another run of the
 * same case, against which the fraud service's 409 guards as before.
 */
export async function readStoredCase(ctx: JobContext, details: DisputeDetails): Promise<StoredCase> {
  const [row] = await query<{ security_key: string | null; linked: number; chargeback_id: number | null; fraud_submitted_at: Date | null; action_log: string | null }[]>(
    ctx,
    `SELECT (SELECT security_key FROM merchant_accounts WHERE mid = ?) AS security_key,
            EXISTS (SELECT 1 FROM dispute_linkages WHERE case_id = ?) AS linked,
            c.id AS chargeback_id, c.fraud_submitted_at, c.action_log
       FROM (SELECT 1) AS one LEFT JOIN chargebacks c ON c.case_id = ?`,
    [details.mid, details.caseId, details.caseId],
  );
  return {
    securityKey: row!.security_key,
    linked: Number(row!.linked) === 1,
    chargeback: row!.chargeback_id === null ? null : { fraud_submitted_at: row!.fraud_submitted_at, action_log: row!.action_log ?? "" },
  };
}
