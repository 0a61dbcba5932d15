-- AlterTable
ALTER TABLE `tickets` ADD COLUMN `unlocked_budget` DECIMAL(8, 2) NULL,
    ADD COLUMN `unlocked_hours` DECIMAL(8, 2) NULL;

-- CreateTable
CREATE TABLE `project_time_entries` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `ticket_id` INTEGER NOT NULL,
    `provider_entry_id` BIGINT NOT NULL,
    `user_id` INTEGER NOT NULL,
    `hours` DECIMAL(8, 2) NOT NULL,
    `notes` TEXT NULL,
    `spent_date` DATE NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    UNIQUE INDEX `project_time_entries_provider_entry_id_key`(`provider_entry_id`),
    INDEX `project_time_entries_ticket_id_idx`(`ticket_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `time_events` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `ticket_id` INTEGER NOT NULL,
    `kind` VARCHAR(16) NOT NULL,
    `hours_used` DECIMAL(8, 2) NOT NULL,
    `budget` DECIMAL(8, 2) NOT NULL,
    `staff_id` INTEGER NULL,
    `at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `time_events_ticket_id_at_idx`(`ticket_id`, `at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
