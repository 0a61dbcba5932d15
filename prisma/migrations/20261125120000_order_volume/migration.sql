-- AlterTable
ALTER TABLE `sites` ADD COLUMN `order_volume_window_hours` INTEGER NOT NULL DEFAULT 24,
    ADD COLUMN `order_volume_min` INTEGER NOT NULL DEFAULT 1;

-- CreateIndex
CREATE INDEX `orders_site_id_created_at_idx` ON `orders`(`site_id`, `created_at`);
