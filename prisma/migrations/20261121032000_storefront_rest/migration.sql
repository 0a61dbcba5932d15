-- CreateIndex
CREATE INDEX `sync_runs_site_id_kind_status_started_at_idx` ON `sync_runs`(`site_id`, `kind`, `status`, `started_at`);
