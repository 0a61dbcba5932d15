-- CreateTable
CREATE TABLE `managed_sites` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `name` VARCHAR(191) NOT NULL,
    `url` VARCHAR(255) NOT NULL,
    `client` VARCHAR(191) NULL,
    `status` VARCHAR(16) NOT NULL DEFAULT 'active',
    `hosting` VARCHAR(191) NULL,
    `notes` TEXT NULL,
    `wp_username` VARCHAR(191) NULL,
    `wp_app_password` TEXT NULL,
    `cdn_zone_id` VARCHAR(64) NULL,
    `cdn_api_token` TEXT NULL,
    `wp_name` VARCHAR(255) NULL,
    `wp_description` TEXT NULL,
    `plugins` JSON NULL,
    `synced_at` DATETIME(3) NULL,
    `ssl_issuer` VARCHAR(255) NULL,
    `ssl_expires_at` DATETIME(3) NULL,
    `ssl_checked_at` DATETIME(3) NULL,
    `last_audit` JSON NULL,
    `last_audit_at` DATETIME(3) NULL,
    `screenshot_key` VARCHAR(255) NULL,
    `screenshot_at` DATETIME(3) NULL,
    `archived_at` DATETIME(3) NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated_at` DATETIME(3) NOT NULL,

    UNIQUE INDEX `managed_sites_url_key`(`url`),
    INDEX `managed_sites_status_idx`(`status`),
    INDEX `managed_sites_client_idx`(`client`),
    INDEX `managed_sites_ssl_expires_at_idx`(`ssl_expires_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `costs` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `name` VARCHAR(191) NOT NULL,
    `vendor` VARCHAR(191) NOT NULL,
    `amount` DECIMAL(10, 2) NOT NULL,
    `currency` CHAR(3) NOT NULL,
    `cycle` VARCHAR(8) NOT NULL,
    `renews_on` DATE NULL,
    `notes` TEXT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated_at` DATETIME(3) NOT NULL,

    INDEX `costs_vendor_idx`(`vendor`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `site_costs` (
    `site_id` INTEGER NOT NULL,
    `cost_id` INTEGER NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `site_costs_cost_id_idx`(`cost_id`),
    PRIMARY KEY (`site_id`, `cost_id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `licenses` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `product` VARCHAR(191) NOT NULL,
    `license_key` TEXT NULL,
    `key_digest` CHAR(64) NULL,
    `seats` INTEGER NULL,
    `expires_on` DATE NULL,
    `cost_id` INTEGER NULL,
    `notes` TEXT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated_at` DATETIME(3) NOT NULL,

    UNIQUE INDEX `licenses_product_key_digest_key`(`product`, `key_digest`),
    INDEX `licenses_cost_id_idx`(`cost_id`),
    INDEX `licenses_expires_on_idx`(`expires_on`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- AddForeignKey
ALTER TABLE `site_costs` ADD CONSTRAINT `site_costs_site_id_fkey` FOREIGN KEY (`site_id`) REFERENCES `managed_sites`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `site_costs` ADD CONSTRAINT `site_costs_cost_id_fkey` FOREIGN KEY (`cost_id`) REFERENCES `costs`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `licenses` ADD CONSTRAINT `licenses_cost_id_fkey` FOREIGN KEY (`cost_id`) REFERENCES `costs`(`id`) ON DELETE SET NULL ON UPDATE CASCADE;
