import { formatDateTime } from "@mw/platform/core";
import type { QueueName } from "@mw/platform/config";
import { indexedJobs, indexJob, jobFields, jobStatus, type JobStatus } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { findAcquirerEvent, listAcquirerEvents, type AcquirerEventFilter, type AcquirerEventRow } from "../webhooks/index.ts";
import { disputeJobId, processDisputeJob } from "./jobs.ts";
import { DISPUTE_OUTCOMES, type DisputeOutcome } from "./outcomes.ts";

/**
 * Where a received dispute is: the stored outcome decides `matched`,
 * `unmatched` and `failed` (so the list's filter and the operations page's
 * counts agree with every row); the queue refines an open one into
 * `processing` or `retrying`.
 */
export const DISPUTE_STATES = ["pending", "processing", "retrying", "matched", "unmatched", "failed"] as const;
type DisputeState = (typeof DISPUTE_STATES)[number];

/** The states a list can be filtered by: those the table holds (`pending`: not finished, processing and retrying too). */
export const DISPUTE_STATE_FILTERS = ["pending", "matched", "unmatched", "failed"] as const;
type DisputeStateFilter = (typeof DISPUTE_STATE_FILTERS)[number];

const OUTCOMES_OF: Record<Exclude<DisputeStateFilter, "pending">, DisputeOutcome[]> = {
  matched: ["linked", "linked_card", "linked_fallback"],
  unmatched: ["no_gateway_result", "no_match"],
  failed: ["no_account", "invalid_dispute", "failed"],
};

/** The stored outcomes of a state filter; null stands for "not finished". */
function outcomesOf(state: DisputeStateFilter): (DisputeOutcome | null)[] {
  return state === "pending" ? [null] : OUTCOMES_OF[state];
}

/** The state a stored outcome stands for (null: not finished). */
export function disputeStateOf(outcome: string | null): DisputeState {
  if (outcome === null) return "pending";
  return (Object.keys(OUTCOMES_OF) as (keyof typeof OUTCOMES_OF)[]).find((state) => OUTCOMES_OF[state].includes(outcome as DisputeOutcome)) ?? "failed";
}

/** A case id as the acquirer's event id carries it (spec 1, 4.5: acquirer_case_<case id>); null for other event ids. */
function caseIdOf(eventId: string | null): string | null {
  return eventId?.startsWith("acquirer_case_") ? eventId.slice("acquirer_case_".length) : null;
}

/** The job-index key of a received dispute: its replays are recorded under it. */
const indexKeyOf = (webhookId: number) => `dispute.${webhookId}`;

/** Records a replay's job (its id carries a time no builder can derive) for the dispute's job search and lifecycle. */
export function indexDisputeReplay(deps: Pick<Connections, "queues">, webhookId: number, jobId: string, at: number): Promise<void> {
  return indexJob(deps.queues, indexKeyOf(webhookId), processDisputeJob.queue, jobId, at);
}

/**
 * Every job of a received dispute: its replays (newest first, from the job
 * index), then the original, whose id is derived from the row. The webhook's
 * request path writes nothing for this.
 */
async function disputeJobs(deps: Pick<Connections, "queues">, row: { id: number; event_id: string | null }): Promise<{ queue: QueueName; id: string }[]> {
  const replays = await indexedJobs(deps.queues, indexKeyOf(row.id));
  return [...replays, { queue: processDisputeJob.queue, id: disputeJobId(row) }];
}

/** Every job of a case (spec 1, 4.6: its event id is acquirer_case_<case id>), replays included; the derived original when the case was never stored. */
export async function disputeJobsByCase(deps: Pick<Connections, "prisma" | "queues">, caseId: string): Promise<{ queue: QueueName; id: string }[]> {
  const eventId = `acquirer_case_${caseId}`;
  const row = await findAcquirerEvent(deps, { event_id: eventId });
  return row ? disputeJobs(deps, row) : [{ queue: processDisputeJob.queue, id: disputeJobId({ id: 0, event_id: eventId }) }];
}

interface DisputeLifecycle {
  state: DisputeState;
  reason: string | null;
  next_attempt_at: Date | null;
  attempts: number;
  last_error: string | null;
  /** The newest job the queue still holds (a replay before the original). */
  job: JobStatus | null;
  /** How many jobs the dispute had: the original and its replays. */
  jobs: number;
}

/** The newest of these jobs the queue still holds. */
async function newestHeld(deps: Pick<Connections, "queues">, refs: { queue: QueueName; id: string }[]): Promise<JobStatus | null> {
  for (const ref of refs) {
    const job = await jobStatus(deps.queues, ref.queue, ref.id);
    if (job) return job;
  }
  return null;
}

/** Job states in which a job will still run (or runs now): a replay then would run beside it. */
const IN_PROGRESS = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);

/** The dispute's newest job when it has yet to end (waiting, running, waiting for a retry); null when none is. */
export async function disputeJobInProgress(deps: Pick<Connections, "queues">, row: { id: number; event_id: string | null }): Promise<JobStatus | null> {
  const job = await newestHeld(deps, await disputeJobs(deps, row));
  return job && IN_PROGRESS.has(job.state) ? job : null;
}

/** The lifecycle of one received dispute (its row and its newest job). */
async function disputeLifecycle(deps: Pick<Connections, "queues">, row: AcquirerEventRow): Promise<DisputeLifecycle> {
  const refs = await disputeJobs(deps, row);
  const job = await newestHeld(deps, refs);
  // A running job (a first run, or a replay of a finished dispute) says more than the stored outcome, until it ends.
  let state = disputeStateOf(row.outcome);
  if (job?.state === "active") state = "processing";
  else if (job?.state === "delayed" && job.attempts_made > 0) state = "retrying";
  const outcome = row.outcome as DisputeOutcome | null;
  const described = outcome ? (DISPUTE_OUTCOMES[outcome] ?? outcome) : null;
  const reason = state === "retrying" ? job!.failed_reason : state === "failed" && job?.failed_reason ? `${described}: ${job.failed_reason}` : described;
  return {
    state,
    reason,
    next_attempt_at: job?.state === "delayed" ? job.next_attempt_at : null,
    attempts: job?.attempts_made ?? 0,
    last_error: job?.failed_reason ?? null,
    job,
    jobs: refs.length,
  };
}

/** A received dispute with its lifecycle, as GET /disputes, the console and `dispute:show` show it. */
async function disputeView(deps: Pick<Connections, "queues">, row: AcquirerEventRow) {
  const lifecycle = await disputeLifecycle(deps, row);
  return {
    webhook_id: row.id,
    case_id: caseIdOf(row.event_id),
    event_id: row.event_id,
    event_type: row.event_type,
    received_at: formatDateTime(row.received_at)!,
    processed_at: formatDateTime(row.processed_at),
    outcome: row.outcome,
    state: lifecycle.state,
    state_reason: lifecycle.reason,
    next_attempt_at: formatDateTime(lifecycle.next_attempt_at),
    attempts: lifecycle.attempts,
    last_error: lifecycle.last_error,
    jobs: lifecycle.jobs,
    ...jobFields(lifecycle.job),
  };
}

interface DisputeListFilter {
  state?: DisputeStateFilter;
  outcome?: DisputeOutcome;
  case_id?: string;
  received_from?: Date;
  received_before?: Date;
  processed_from?: Date;
}

/** The stored deliveries a dispute filter stands for. */
export function eventFilter(filter: DisputeListFilter): AcquirerEventFilter {
  const outcomes = filter.outcome ? [filter.outcome] : undefined;
  const byState = filter.state ? outcomesOf(filter.state) : undefined;
  return {
    outcomes: outcomes && byState ? outcomes.filter((outcome) => byState.includes(outcome)) : (outcomes ?? byState),
    event_id: filter.case_id ? `acquirer_case_${filter.case_id}` : undefined,
    received_from: filter.received_from,
    received_before: filter.received_before,
    processed_from: filter.processed_from,
  };
}

/** Every stored acquirer event, newest first, failed ones included, with its processing state and outcome. */
export async function listDisputes(deps: Pick<Connections, "replica" | "queues">, filter: DisputeListFilter, window: { skip: number; take: number }) {
  const { total, rows } = await listAcquirerEvents(deps, eventFilter(filter), window);
  return { total, rows: await Promise.all(rows.map((row) => disputeView(deps, row))) };
}

/** A case's received dispute with its lifecycle, for `dispute:show` (from the primary: an operator asks right after a change). */
export async function disputeByCase(deps: Pick<Connections, "prisma" | "queues">, caseId: string) {
  const { rows } = await listDisputes({ replica: deps.prisma, queues: deps.queues }, { case_id: caseId }, { skip: 0, take: 1 });
  return rows[0] ?? null;
}
