-- CreateTable
CREATE TABLE `image_api_keys` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `label` VARCHAR(100) NOT NULL,
    `key_hash` CHAR(64) NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `last_used_at` DATETIME(3) NULL,
    `revoked_at` DATETIME(3) NULL,

    UNIQUE INDEX `image_api_keys_key_hash_key`(`key_hash`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `serial_numbers` (
    `id` INTEGER NOT NULL,
    `serial_number` VARCHAR(64) NOT NULL,
    `date_of_sealing` DATETIME(3) NOT NULL,
    `image_key` VARCHAR(255) NOT NULL,

    UNIQUE INDEX `serial_numbers_serial_number_key`(`serial_number`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `item_reviews` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `item_id` INTEGER NOT NULL,
    `author` VARCHAR(100) NOT NULL,
    `rating` TINYINT NOT NULL,
    `title` VARCHAR(200) NULL,
    `body` TEXT NOT NULL,
    `date_published` DATE NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `item_reviews_item_id_date_published_idx`(`item_id`, `date_published`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `reports` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `type` VARCHAR(64) NOT NULL,
    `report_key` VARCHAR(191) NOT NULL,
    `params` JSON NOT NULL,
    `status` VARCHAR(16) NOT NULL,
    `row_count` INTEGER NULL,
    `storage_key` VARCHAR(255) NULL,
    `job_id` VARCHAR(191) NULL,
    `error` TEXT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `started_at` DATETIME(3) NULL,
    `finished_at` DATETIME(3) NULL,

    UNIQUE INDEX `reports_report_key_key`(`report_key`),
    INDEX `reports_created_at_idx`(`created_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- AddForeignKey
ALTER TABLE `item_reviews` ADD CONSTRAINT `item_reviews_item_id_fkey` FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;
