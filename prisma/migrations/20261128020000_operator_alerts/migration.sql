-- CreateTable
CREATE TABLE `operator_alerts` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `alert_key` VARCHAR(191) NOT NULL,
    `subject` VARCHAR(255) NOT NULL,
    `text` MEDIUMTEXT NOT NULL,
    `reason` VARCHAR(500) NULL,
    `status` VARCHAR(16) NOT NULL DEFAULT 'pending',
    `channels` JSON NULL,
    `last_error` VARCHAR(500) NULL,
    `resolved_by` VARCHAR(60) NULL,
    `delivered_at` DATETIME(3) NULL,
    `created` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated` DATETIME(3) NOT NULL,

    UNIQUE INDEX `operator_alerts_alert_key_key`(`alert_key`),
    INDEX `operator_alerts_status_id_idx`(`status`, `id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
