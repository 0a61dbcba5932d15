export { readWebhookEvent, recordWebhookOutcome, storeAcquirerEvent, webhookOutcomeStatement } from "./acquirer-events.ts";
export { parseWebhookPayload, webhookDbError, webhookQueueError } from "./deliveries.ts";
export { inboxSweepJob } from "./jobs.ts";
export { sweepWebhookInbox } from "./inbox-sweep.ts";
export { acquirerOutcomeCounts } from "./acquirer-outcomes.ts";
export { countAbandonedWebhooks, strandedAcquirerEvents, strandedProductEvents } from "./inbox.ts";
export { findAcquirerEvent, findWebhookEvent, markWebhookProcessed, storeProductEvent } from "./stored-events.ts";
export { listAcquirerEvents, type AcquirerEventFilter, type AcquirerEventRow } from "./acquirer-list.ts";
export { acquirerTrends } from "./acquirer-trends.ts";
