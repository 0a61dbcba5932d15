-- AlterTable
ALTER TABLE `users` ADD COLUMN `staff_id` INTEGER NULL;

-- CreateIndex
CREATE UNIQUE INDEX `users_staff_id_key` ON `users`(`staff_id`);

-- CreateTable
CREATE TABLE `organisations` (
    `id` INTEGER NOT NULL,
    `name` VARCHAR(255) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,

    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `staff` (
    `id` INTEGER NOT NULL,
    `name` VARCHAR(255) NOT NULL,
    `email` VARCHAR(255) NULL,
    `phone` VARCHAR(32) NULL,
    `department_id` INTEGER NULL,
    `is_project_manager` BOOLEAN NOT NULL DEFAULT false,
    `is_department_manager` BOOLEAN NOT NULL DEFAULT false,
    `updated_at` DATETIME(3) NOT NULL,

    INDEX `staff_department_id_idx`(`department_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `tickets` (
    `id` INTEGER NOT NULL,
    `number` VARCHAR(32) NOT NULL,
    `subject` VARCHAR(255) NOT NULL,
    `status` VARCHAR(32) NOT NULL,
    `organisation_id` INTEGER NULL,
    `client_name` VARCHAR(255) NULL,
    `client_email` VARCHAR(255) NULL,
    `is_vip` BOOLEAN NOT NULL DEFAULT false,
    `customer_type` VARCHAR(64) NULL,
    `department_id` INTEGER NULL,
    `department_name` VARCHAR(255) NULL,
    `department_manager_staff_id` INTEGER NULL,
    `assigned_staff_id` INTEGER NULL,
    `time_project_id` INTEGER NULL,
    `budget_hours` DECIMAL(8, 2) NULL,
    `quoted_hours` DECIMAL(8, 2) NULL,
    `hours_used` DECIMAL(8, 2) NOT NULL DEFAULT 0,
    `locked` BOOLEAN NOT NULL DEFAULT false,
    `ai_urgency` VARCHAR(8) NULL,
    `ai_urgency_percentage` INTEGER NULL,
    `ai_estimated_hours` DECIMAL(8, 2) NULL,
    `ticket_summary` TEXT NULL,
    `ai_timeline` TEXT NULL,
    `ai_suggested_title` VARCHAR(255) NULL,
    `opened_at` DATETIME(3) NOT NULL,
    `source_updated_at` DATETIME(3) NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated_at` DATETIME(3) NOT NULL,

    UNIQUE INDEX `tickets_number_key`(`number`),
    INDEX `tickets_organisation_id_idx`(`organisation_id`),
    INDEX `tickets_assigned_staff_id_idx`(`assigned_staff_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `ticket_entries` (
    `id` INTEGER NOT NULL,
    `ticket_id` INTEGER NOT NULL,
    `type` CHAR(1) NOT NULL,
    `poster_name` VARCHAR(255) NOT NULL,
    `poster_type` VARCHAR(8) NOT NULL,
    `staff_id` INTEGER NULL,
    `is_internal` BOOLEAN NOT NULL DEFAULT false,
    `body` MEDIUMTEXT NOT NULL,
    `format` VARCHAR(8) NOT NULL,
    `posted_at` DATETIME(3) NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `ticket_entries_ticket_id_posted_at_idx`(`ticket_id`, `posted_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `urgency_queue` (
    `ticket_id` INTEGER NOT NULL,
    `processed` BOOLEAN NOT NULL DEFAULT false,
    `failures` INTEGER NOT NULL DEFAULT 0,
    `queued_at` DATETIME(3) NOT NULL,
    `analysed_at` DATETIME(3) NULL,
    `last_error` VARCHAR(500) NULL,
    `updated_at` DATETIME(3) NOT NULL,

    INDEX `urgency_queue_processed_failures_idx`(`processed`, `failures`),
    PRIMARY KEY (`ticket_id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `ai_snapshots` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `ticket_id` INTEGER NOT NULL,
    `urgency` VARCHAR(8) NOT NULL,
    `urgency_percentage` INTEGER NOT NULL,
    `estimated_hours` DECIMAL(8, 2) NOT NULL,
    `summary` TEXT NOT NULL,
    `timeline` TEXT NOT NULL,
    `suggested_title` VARCHAR(255) NOT NULL,
    `model_used` VARCHAR(64) NOT NULL,
    `created` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `ai_snapshots_ticket_id_created_idx`(`ticket_id`, `created`),
    INDEX `ai_snapshots_created_idx`(`created`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `ai_history` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `ticket_id` INTEGER NOT NULL,
    `event` VARCHAR(32) NOT NULL,
    `channel` VARCHAR(16) NULL,
    `detail` JSON NULL,
    `sent_at` DATETIME(3) NULL,
    `created` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    UNIQUE INDEX `ai_history_ticket_id_channel_key`(`ticket_id`, `channel`),
    INDEX `ai_history_ticket_id_created_idx`(`ticket_id`, `created`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `staff_notifications` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `staff_id` INTEGER NOT NULL,
    `ticket_id` INTEGER NULL,
    `kind` VARCHAR(32) NOT NULL,
    `title` VARCHAR(255) NOT NULL,
    `body` TEXT NOT NULL,
    `read_at` DATETIME(3) NULL,
    `created` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    UNIQUE INDEX `staff_notifications_staff_id_ticket_id_kind_key`(`staff_id`, `ticket_id`, `kind`),
    INDEX `staff_notifications_staff_id_id_idx`(`staff_id`, `id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- AddForeignKey
ALTER TABLE `tickets` ADD CONSTRAINT `tickets_organisation_id_fkey` FOREIGN KEY (`organisation_id`) REFERENCES `organisations`(`id`) ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `ticket_entries` ADD CONSTRAINT `ticket_entries_ticket_id_fkey` FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `urgency_queue` ADD CONSTRAINT `urgency_queue_ticket_id_fkey` FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;
