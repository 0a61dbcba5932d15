-- Retention (docs/operations.md): each daily purge deletes its oldest rows a batch at a time, reading them by
-- the age column through an index, never by scanning the table.
CREATE INDEX `sync_runs_started_at_idx` ON `sync_runs`(`started_at`);
CREATE INDEX `ai_history_event_created_idx` ON `ai_history`(`event`, `created`);
CREATE INDEX `staff_notifications_created_idx` ON `staff_notifications`(`created`);
CREATE INDEX `ticket_changes_created_idx` ON `ticket_changes`(`created`);
CREATE INDEX `assistant_conversations_updated_idx` ON `assistant_conversations`(`updated`);
