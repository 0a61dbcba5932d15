/** One recipient of an alert and what became of it. */
export interface RecipientOutcome {
  to: string;
  outcome: "sent" | "failed";
  reason: string | null;
}

/** A ticket history row as its page shows it: an alert's status, per recipient, or handed to the operators and why. */
export interface HistoryLine {
  id: number;
  created: string;
  event: string;
  channel: string | null;
  /** "sent", "partly sent", "failed", "not configured", "waiting" (not tried yet or retrying); null for a row that is not an alert. */
  status: string | null;
  recipients: RecipientOutcome[];
  /** Why the channel did not deliver (not configured, nobody to reach), or the overall outcome; null when every recipient got it. */
  note: string | null;
  handed_to_operators: boolean;
}

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

/**
 * Reads what sendCriticalAlert stored on the history row (status, sent_to,
 * failed, reason, outcome, handed_to): a row is "sent" only when the
 * channel said so, never merely because delivery ended (sent_at).
 */
export function historyLines(history: { id: number; event: string; channel: string | null; detail: unknown; sent_at: string | null; created: string }[]): HistoryLine[] {
  return history.map((row) => {
    const detail = (row.detail && typeof row.detail === "object" ? row.detail : {}) as Record<string, unknown>;
    if (!row.channel) return { id: row.id, created: row.created, event: row.event, channel: null, status: null, recipients: [], note: null, handed_to_operators: false };
    const sentTo = Array.isArray(detail.sent_to) ? detail.sent_to.map(String) : [];
    const failed = detail.failed && typeof detail.failed === "object" ? Object.entries(detail.failed as Record<string, unknown>) : [];
    const recipients: RecipientOutcome[] = [
      ...sentTo.map((to) => ({ to, outcome: "sent" as const, reason: null })),
      ...failed.filter(([to]) => !sentTo.includes(to)).map(([to, reason]) => ({ to, outcome: "failed" as const, reason: text(reason) })),
    ];
    // Staff notifications name staff ids.
    if (Array.isArray(detail.notified)) recipients.push(...detail.notified.map((id) => ({ to: `staff ${String(id)}`, outcome: "sent" as const, reason: null })));
    const status = text(detail.status) ?? (row.sent_at ? "sent" : "waiting");
    const handed = detail.handed_to === "operators" || Array.isArray(detail.operator_alerts);
    const note = status === "not configured" ? text(detail.reason) : status === "sent" ? null : (text(detail.outcome) ?? text(detail.reason));
    return { id: row.id, created: row.created, event: row.event, channel: row.channel, status, recipients, note, handed_to_operators: handed };
  });
}
