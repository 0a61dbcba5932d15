-- The operations page's trends read each window from an index alone, no row lookup per order or delivery:
-- the export latency per hour needs each exported order's `created_at` beside its `imported_at`, and the
-- disputes finished per hour need each delivery's `source` and `outcome` beside its `processed_at`. Each wider
-- index keeps the columns of the one it replaces in front, so every read of the narrower one (GET /stats's
-- orders exported today; the inbox's unprocessed deliveries, retention by processed_at) is served as before.
ALTER TABLE `orders` DROP INDEX `orders_imported_imported_at_idx`, ADD INDEX `orders_imported_imported_at_created_at_idx`(`imported`, `imported_at`, `created_at`);
ALTER TABLE `webhook_events` DROP INDEX `webhook_events_processed_at_received_at_idx`, ADD INDEX `webhook_events_processed_at_received_at_source_outcome_idx`(`processed_at`, `received_at`, `source`, `outcome`);
