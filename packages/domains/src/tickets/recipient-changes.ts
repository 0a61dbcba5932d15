import type { Prisma } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";
import type { Staff } from "@mw/platform/prisma";

type Db = Prisma.TransactionClient;

/** What sent a staff.updated signal: the ticket system's signal endpoint, or an import from the platform's shell. */
export type SignalSource = "signal" | "tickets:import" | "staff:import";

/**
 * The staff directory's fields that decide who gets an alert (alertRecipients
 * and the alert channels): where it is sent (e-mail, phone) and whether the
 * member is among a department's recipients (department, manager flags).
 */
const RECIPIENT_FIELDS = ["email", "phone", "department_id", "is_project_manager", "is_department_manager"] as const;
type RecipientField = (typeof RECIPIENT_FIELDS)[number];
type RecipientValues = Pick<Staff, RecipientField>;

export type RecipientChanges = Partial<Record<RecipientField, { from: string | number | boolean | null; to: string | number | boolean | null }>>;

/** The recipient fields a signal changes: each with its old and new value; for a member new to the directory, the ones it sets. */
export function recipientChanges(stored: RecipientValues | null, incoming: RecipientValues): RecipientChanges {
  const changes: RecipientChanges = {};
  for (const field of RECIPIENT_FIELDS) {
    const from = stored ? stored[field] : null;
    const to = incoming[field];
    if (stored ? from !== to : to !== null && to !== false) changes[field] = { from, to };
  }
  return changes;
}

/**
 * Records, in the signal's own transaction, a change of where alerts go and
 * the signal that made it: whoever holds the ticket system's key (or a user
 * who set it, with manage_options) can move CRITICAL alerts with a
 * staff.updated signal, so operators must be able to see each such move.
 */
export async function recordRecipientChange(db: Db, staff: { id: number; name: string }, changes: RecipientChanges, source: SignalSource, signal: unknown): Promise<void> {
  await db.staffRecipientChange.create({ data: { staff_id: staff.id, staff_name: staff.name, changes: JSON.stringify(changes), source, signal: JSON.stringify(signal) } });
}

interface RecipientChangeRow {
  id: number;
  staffId: number;
  staffName: string;
  changes: RecipientChanges;
  source: string;
  signal: string;
  changedAt: string;
}

/** The latest recipient changes, newest first (the console's operations page). */
export async function recentRecipientChanges({ prisma }: Pick<Connections, "prisma">, limit = 25): Promise<RecipientChangeRow[]> {
  const rows = await prisma.staffRecipientChange.findMany({ orderBy: { id: "desc" }, take: limit });
  return rows.map((row) => ({
    id: row.id,
    staffId: row.staff_id,
    staffName: row.staff_name,
    changes: JSON.parse(row.changes) as RecipientChanges,
    source: row.source,
    signal: row.signal,
    changedAt: row.changed_at.toISOString(),
  }));
}
