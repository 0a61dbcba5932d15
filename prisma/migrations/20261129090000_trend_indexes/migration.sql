-- The operations page's trends and failure counts at a year's volume read index ranges, not tables:
-- acquirer deliveries received per hour, and sync runs failed since a time.
CREATE INDEX `webhook_events_source_received_at_idx` ON `webhook_events`(`source`, `received_at`);
CREATE INDEX `sync_runs_status_finished_at_idx` ON `sync_runs`(`status`, `finished_at`);
