-- CreateTable
CREATE TABLE `sync_runs` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `site_id` INTEGER NOT NULL,
    `kind` VARCHAR(16) NOT NULL,
    `job_id` VARCHAR(191) NULL,
    `status` VARCHAR(16) NOT NULL,
    `counts` JSON NULL,
    `error` TEXT NULL,
    `started_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `finished_at` DATETIME(3) NULL,

    INDEX `sync_runs_site_id_kind_started_at_idx`(`site_id`, `kind`, `started_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `shipment_records` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `site_id` INTEGER NOT NULL,
    `platform_order_id` VARCHAR(64) NOT NULL,
    `tracking_number` VARCHAR(64) NOT NULL,
    `erp_carrier_code` VARCHAR(32) NULL,
    `platform_carrier_code` VARCHAR(64) NULL,
    `platform_shipment_id` VARCHAR(64) NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    UNIQUE INDEX `shipment_records_site_id_platform_order_id_tracking_number_key`(`site_id`, `platform_order_id`, `tracking_number`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `item_history` (
    `id` BIGINT NOT NULL AUTO_INCREMENT,
    `site_id` INTEGER NOT NULL,
    `sku` VARCHAR(64) NOT NULL,
    `erp_stock` INTEGER NOT NULL,
    `pushed_stock` INTEGER NOT NULL,
    `synced_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `item_history_site_id_sku_idx`(`site_id`, `sku`),
    INDEX `item_history_synced_at_idx`(`synced_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- AddForeignKey
ALTER TABLE `sync_runs` ADD CONSTRAINT `sync_runs_site_id_fkey` FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `shipment_records` ADD CONSTRAINT `shipment_records_site_id_fkey` FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `item_history` ADD CONSTRAINT `item_history_site_id_fkey` FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;
