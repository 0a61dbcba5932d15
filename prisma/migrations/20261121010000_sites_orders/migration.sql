-- CreateTable
CREATE TABLE `sites` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `name` VARCHAR(191) NOT NULL,
    `platform` ENUM('storefront_a', 'storefront_b') NOT NULL,
    `site_url` VARCHAR(255) NOT NULL,
    `api_credentials` TEXT NULL,
    `is_active` BOOLEAN NOT NULL DEFAULT true,
    `orders_sync` BOOLEAN NOT NULL DEFAULT false,
    `inventory_sync` BOOLEAN NOT NULL DEFAULT false,
    `tracking_sync` BOOLEAN NOT NULL DEFAULT false,
    `tracking_enabled` BOOLEAN NOT NULL DEFAULT false,
    `health_check_url` VARCHAR(255) NULL,
    `status_filters` VARCHAR(64) NOT NULL DEFAULT '9,3',
    `auto_complete` BOOLEAN NOT NULL DEFAULT true,
    `send_customer_email` BOOLEAN NOT NULL DEFAULT true,
    `channel_filter` JSON NULL,
    `out_of_stock_threshold` INTEGER NOT NULL DEFAULT 0,
    `fraud_team_id` VARCHAR(64) NULL,
    `fraud_api_key` TEXT NULL,
    `webhook_secret` TEXT NULL,
    `api_base_url` VARCHAR(255) NULL,
    `order_last_run` DATETIME(3) NULL,
    `inventory_last_run` DATETIME(3) NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated_at` DATETIME(3) NOT NULL,

    INDEX `sites_is_active_name_idx`(`is_active`, `name`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `site_api_keys` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `site_id` INTEGER NOT NULL,
    `label` VARCHAR(100) NOT NULL,
    `key_hash` CHAR(64) NOT NULL,
    `key_prefix` VARCHAR(12) NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `last_used_at` DATETIME(3) NULL,
    `revoked_at` DATETIME(3) NULL,

    UNIQUE INDEX `site_api_keys_key_hash_key`(`key_hash`),
    INDEX `site_api_keys_site_id_idx`(`site_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `carrier_mappings` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `platform` ENUM('storefront_a', 'storefront_b') NOT NULL,
    `erp_carrier_code` VARCHAR(20) NOT NULL,
    `platform_carrier_code` VARCHAR(50) NOT NULL,

    UNIQUE INDEX `carrier_mappings_platform_erp_carrier_code_key`(`platform`, `erp_carrier_code`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `items` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `sku` VARCHAR(64) NOT NULL,
    `name` VARCHAR(255) NOT NULL,
    `price` DECIMAL(12, 2) NOT NULL DEFAULT 0,
    `stock` INTEGER NOT NULL DEFAULT 0,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated_at` DATETIME(3) NOT NULL,

    UNIQUE INDEX `items_sku_key`(`sku`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `orders` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `site_id` INTEGER NOT NULL,
    `number` VARCHAR(20) NOT NULL,
    `trans_id` VARCHAR(20) NULL,
    `erp_sales_order_number` VARCHAR(50) NULL,
    `dateadded` DATETIME(3) NOT NULL,
    `payment_method` VARCHAR(10) NOT NULL,
    `contact_id` INTEGER NOT NULL,
    `shipping_agent_code` VARCHAR(20) NOT NULL,
    `shipping_agent_service` VARCHAR(50) NOT NULL,
    `imported` TINYINT NOT NULL DEFAULT 0,
    `verified` TINYINT NOT NULL DEFAULT 0,
    `ship_status` TINYINT NOT NULL DEFAULT 0,
    `fully_import_from_website` TINYINT NOT NULL DEFAULT 0,
    `pay_1` CHAR(1) NOT NULL DEFAULT '0',
    `pay_2` CHAR(1) NOT NULL DEFAULT '0',
    `pay_3` CHAR(1) NOT NULL DEFAULT '0',
    `pay_4` CHAR(1) NOT NULL DEFAULT '0',
    `pay_5` CHAR(1) NOT NULL DEFAULT '0',
    `pay_6` CHAR(1) NOT NULL DEFAULT '0',
    `payload_hash` CHAR(64) NOT NULL,
    `imported_at` DATETIME(3) NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated_at` DATETIME(3) NOT NULL,

    INDEX `orders_dateadded_idx`(`dateadded`),
    INDEX `orders_imported_created_at_idx`(`imported`, `created_at`),
    INDEX `orders_number_idx`(`number`),
    UNIQUE INDEX `orders_site_id_number_key`(`site_id`, `number`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `order_lines` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `order_id` INTEGER NOT NULL,
    `line` INTEGER NOT NULL,
    `sku` VARCHAR(64) NOT NULL,
    `quantity` INTEGER NOT NULL,
    `price` DECIMAL(12, 2) NOT NULL,
    `coupon_code` VARCHAR(50) NULL,
    `discount_amount` DECIMAL(12, 2) NOT NULL DEFAULT 0,
    `weight` DECIMAL(10, 3) NOT NULL DEFAULT 0,

    UNIQUE INDEX `order_lines_order_id_line_key`(`order_id`, `line`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `order_addresses` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `order_id` INTEGER NOT NULL,
    `type` TINYINT NOT NULL,
    `first_name` VARCHAR(50) NOT NULL,
    `last_name` VARCHAR(50) NOT NULL,
    `company` VARCHAR(10) NULL,
    `address1` VARCHAR(50) NOT NULL,
    `address2` VARCHAR(50) NULL,
    `city` VARCHAR(30) NOT NULL,
    `state` VARCHAR(30) NOT NULL,
    `postal_code` VARCHAR(20) NOT NULL,
    `country` VARCHAR(10) NOT NULL,
    `phone` VARCHAR(30) NULL,
    `email` VARCHAR(58) NOT NULL,

    UNIQUE INDEX `order_addresses_order_id_type_key`(`order_id`, `type`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `sync_errors` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `order_number` VARCHAR(20) NULL,
    `site_id` INTEGER NULL,
    `source` VARCHAR(32) NOT NULL,
    `message` TEXT NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `sync_errors_created_at_idx`(`created_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- AddForeignKey
ALTER TABLE `site_api_keys` ADD CONSTRAINT `site_api_keys_site_id_fkey` FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `orders` ADD CONSTRAINT `orders_site_id_fkey` FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `order_lines` ADD CONSTRAINT `order_lines_order_id_fkey` FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `order_addresses` ADD CONSTRAINT `order_addresses_order_id_fkey` FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- Default carrier mappings: five carriers on both platforms (spec 1, 2.2), lower-case platform codes.
INSERT INTO `carrier_mappings` (`platform`, `erp_carrier_code`, `platform_carrier_code`) VALUES
    ('storefront_a', 'UPS', 'ups'),
    ('storefront_a', 'FEDEX', 'fedex'),
    ('storefront_a', 'USPS', 'usps'),
    ('storefront_a', 'DHL', 'dhl'),
    ('storefront_a', 'ONTRAC', 'ontrac'),
    ('storefront_b', 'UPS', 'ups'),
    ('storefront_b', 'FEDEX', 'fedex'),
    ('storefront_b', 'USPS', 'usps'),
    ('storefront_b', 'DHL', 'dhl'),
    ('storefront_b', 'ONTRAC', 'ontrac');
