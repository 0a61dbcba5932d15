-- AlterTable
ALTER TABLE `orders` ADD COLUMN `failed_at` DATETIME(3) NULL,
    ADD COLUMN `failure` TEXT NULL;

-- CreateIndex
CREATE INDEX `orders_failed_at_idx` ON `orders`(`failed_at`);
