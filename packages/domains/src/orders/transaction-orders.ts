import { poolQuery, type SqlPool } from "@mw/platform";

/** An order a gateway transaction may belong to, with its site's fraud-service credentials (the dispute pipeline submits with them). */
export interface TransactionOrder {
  number: string;
  trans_id: string | null;
  site_id: number;
  fraud_team_id: string | null;
  fraud_api_key: string | null;
}

/**
 * Orders whose number is `byNumber` or whose trans_id is `byTransId` (a null
 * matches nothing), oldest first, at most 20: one round trip on the driver
 * pool, as the dispute pipeline reads (docs/decisions.md, "Dispute pipeline throughput").
 */
export async function ordersForTransaction(deps: { sql: SqlPool }, byNumber: string | null, byTransId: string | null): Promise<TransactionOrder[]> {
  return poolQuery<TransactionOrder[]>(
    deps,
    `SELECT o.number, o.trans_id, s.id AS site_id, s.fraud_team_id, s.fraud_api_key
       FROM orders o JOIN sites s ON s.id = o.site_id
      WHERE o.number = ? OR o.trans_id = ?
      ORDER BY o.id LIMIT 20`,
    [byNumber, byTransId],
  );
}
