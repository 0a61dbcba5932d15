-- CreateTable
CREATE TABLE `ticket_bridge_secrets` (
    `id` INTEGER NOT NULL,
    `secret` TEXT NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
