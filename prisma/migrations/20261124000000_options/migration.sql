-- CreateTable
CREATE TABLE `options` (
    `name` VARCHAR(191) NOT NULL,
    `value` TEXT NOT NULL,
    `secret` BOOLEAN NOT NULL DEFAULT false,
    `updated_at` DATETIME(3) NOT NULL,

    PRIMARY KEY (`name`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
