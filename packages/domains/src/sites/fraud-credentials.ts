import { poolQuery, type SqlPool } from "@mw/platform/database";

/** A site's fraud-service credentials, the key still sealed: what the dispute pipeline submits with. */
export interface SiteFraudCredentials {
  site_id: number;
  fraud_team_id: string | null;
  fraud_api_key: string | null;
}

/** The fraud-service credentials of the sites `siteIds` that exist, by site id: on the driver pool, as the dispute pipeline reads. */
export async function fraudCredentialsOf(deps: { sql: SqlPool }, siteIds: number[]): Promise<Map<number, SiteFraudCredentials>> {
  if (siteIds.length === 0) return new Map();
  const rows = await poolQuery<SiteFraudCredentials[]>(deps, "SELECT id AS site_id, fraud_team_id, fraud_api_key FROM sites WHERE id IN (?)", [[...new Set(siteIds)]]);
  return new Map(rows.map((row) => [row.site_id, { site_id: row.site_id, fraud_team_id: row.fraud_team_id, fraud_api_key: row.fraud_api_key }]));
}
