export { runUrgencyAnalysis } from "./analysis.ts";
export { sendCriticalAlert } from "./critical-alert.ts";
export { ALERT_CHANNELS, criticalAlertJob, criticalAlertJobId, urgencyAnalysisJob, urgencyAnalysisJobId, urgencyRetentionJob, urgencySweepJob, type AlertChannel } from "./jobs.ts";
export { purgeUrgencyHistory } from "./retention.ts";
export { listSnapshots, ticketDetail, urgencyQueueState } from "./reads.ts";
export { receiveTicketSignal } from "./signal-intake.ts";
export { sweepUrgencyQueue } from "./sweep.ts";
export { URGENCY_LEVELS } from "./engine/index.ts";
