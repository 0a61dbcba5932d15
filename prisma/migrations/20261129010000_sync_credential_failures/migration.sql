-- A sync's upstream that refuses its credentials (a site's storefront, or the ERP): one row per failing credential until a sync gets through again.
CREATE TABLE `sync_credential_failures` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `credential` VARCHAR(32) NOT NULL,
    `site_id` INTEGER NULL,
    `status` INTEGER NOT NULL,
    `error` VARCHAR(500) NOT NULL,
    `failed_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    UNIQUE INDEX `sync_credential_failures_credential_key`(`credential`),
    INDEX `sync_credential_failures_site_id_idx`(`site_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- AddForeignKey
ALTER TABLE `sync_credential_failures` ADD CONSTRAINT `sync_credential_failures_site_id_fkey` FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;
