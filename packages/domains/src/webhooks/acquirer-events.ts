import { GroupInsert, poolQuery, type SqlPool, type Statement } from "@mw/platform/database";

// The acquirer's hot path: the receiver's insert and the dispute pipeline's reads and marks
// of webhook_events go through the driver pool, one round trip each (docs/decisions.md).

const INSERT_EVENT =
  "INSERT INTO webhook_events (source, event_type, event_id, payload, payload_hash, remote_addr, received_at) VALUES ('acquirer', ?, ?, ?, ?, ?, NOW(3))";

/** One group-commit writer per pool: deliveries that arrive together share a commit (see GroupInsert). */
const writers = new WeakMap<SqlPool, GroupInsert>();
function eventWriter(sql: SqlPool): GroupInsert {
  let writer = writers.get(sql);
  if (!writer) {
    writer = new GroupInsert(sql, INSERT_EVENT, { concurrency: 2, maxBatch: 100 });
    writers.set(sql, writer);
  }
  return writer;
}

interface AcquirerEvent {
  event_type: string | null;
  event_id: string | null;
  payload: string;
  payload_hash: string;
  remote_addr: string | null;
}

/** Stores one acquirer delivery, committed with those that arrive together; answers its id (a duplicate event_id fails with a unique violation). */
export function storeAcquirerEvent(deps: { sql: SqlPool }, event: AcquirerEvent): Promise<number> {
  return eventWriter(deps.sql).insert([event.event_type, event.event_id, event.payload, event.payload_hash, event.remote_addr]);
}

/** A stored delivery's source and raw body; undefined when there is no such row. */
export async function readWebhookEvent(deps: { sql: SqlPool }, id: number): Promise<{ id: number; source: string; payload: string } | undefined> {
  const [row] = await poolQuery<{ id: number; source: string; payload: string }[]>(deps, "SELECT id, source, payload FROM webhook_events WHERE id = ?", [id]);
  return row;
}

/** The statement that marks a delivery processed with how it ended, to be sent with others. */
export function webhookOutcomeStatement(id: number, outcome: string): Statement {
  return ["UPDATE webhook_events SET processed_at = NOW(3), outcome = ? WHERE id = ?", [outcome, id]];
}

/** Marks a delivery processed with how it ended, on its own. */
export async function recordWebhookOutcome(deps: { sql: SqlPool }, id: number, outcome: string): Promise<void> {
  await poolQuery(deps, ...webhookOutcomeStatement(id, outcome));
}
