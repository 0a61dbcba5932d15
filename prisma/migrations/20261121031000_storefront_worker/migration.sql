-- AlterTable
ALTER TABLE `shipment_records` ADD COLUMN `order_completed_at` DATETIME(3) NULL;
