-- CreateTable
CREATE TABLE `time_logs` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `ticket_id` INTEGER NOT NULL,
    `staff_id` INTEGER NOT NULL,
    `provider_entry_id` BIGINT NOT NULL,
    `hours` DECIMAL(8, 2) NULL,
    `notes` TEXT NULL,
    `ai_optimized` BOOLEAN NOT NULL DEFAULT false,
    `thread_entry_id` INTEGER NULL,
    `is_running` BOOLEAN NOT NULL DEFAULT false,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated_at` DATETIME(3) NOT NULL,

    UNIQUE INDEX `time_logs_provider_entry_id_key`(`provider_entry_id`),
    INDEX `time_logs_ticket_id_idx`(`ticket_id`),
    INDEX `time_logs_staff_id_is_running_idx`(`staff_id`, `is_running`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
