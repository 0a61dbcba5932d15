-- CreateTable
CREATE TABLE `harvest_clients` (
    `id` INTEGER NOT NULL,
    `name` VARCHAR(255) NOT NULL,
    `is_active` BOOLEAN NOT NULL,
    `synced_at` DATETIME(3) NOT NULL,

    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `harvest_projects` (
    `id` INTEGER NOT NULL,
    `client_id` INTEGER NULL,
    `name` VARCHAR(255) NOT NULL,
    `code` VARCHAR(100) NULL,
    `is_active` BOOLEAN NOT NULL,
    `budget` DECIMAL(10, 2) NULL,
    `budget_by` VARCHAR(32) NULL,
    `synced_at` DATETIME(3) NOT NULL,

    INDEX `harvest_projects_is_active_idx`(`is_active`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `harvest_tasks` (
    `id` INTEGER NOT NULL,
    `name` VARCHAR(255) NOT NULL,
    `is_active` BOOLEAN NOT NULL,
    `synced_at` DATETIME(3) NOT NULL,

    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `harvest_task_assignments` (
    `id` INTEGER NOT NULL,
    `project_id` INTEGER NOT NULL,
    `task_id` INTEGER NOT NULL,
    `is_active` BOOLEAN NOT NULL,
    `budget` DECIMAL(10, 2) NULL,
    `synced_at` DATETIME(3) NOT NULL,

    INDEX `harvest_task_assignments_project_id_idx`(`project_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `harvest_time_entries` (
    `id` BIGINT NOT NULL,
    `project_id` INTEGER NOT NULL,
    `task_id` INTEGER NOT NULL,
    `user_id` INTEGER NOT NULL,
    `spent_date` DATE NOT NULL,
    `hours` DECIMAL(8, 2) NOT NULL,
    `notes` TEXT NULL,
    `is_running` BOOLEAN NOT NULL,
    `synced_at` DATETIME(3) NOT NULL,

    INDEX `harvest_time_entries_project_id_task_id_idx`(`project_id`, `task_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `milestone_alerts` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `project_id` INTEGER NOT NULL,
    `task_id` INTEGER NOT NULL,
    `threshold` INTEGER NOT NULL,
    `percent` DECIMAL(8, 2) NOT NULL,
    `sent_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    UNIQUE INDEX `milestone_alerts_project_id_task_id_threshold_key`(`project_id`, `task_id`, `threshold`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
