-- AlterTable
ALTER TABLE `shipment_records` ADD COLUMN `notify_pending` BOOLEAN NOT NULL DEFAULT false;
