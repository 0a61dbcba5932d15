-- CreateTable
CREATE TABLE `webhook_events` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `source` VARCHAR(32) NOT NULL,
    `site_id` INTEGER NULL,
    `event_type` VARCHAR(100) NULL,
    `event_id` VARCHAR(191) NULL,
    `payload` LONGTEXT NOT NULL,
    `payload_hash` CHAR(64) NOT NULL,
    `remote_addr` VARCHAR(45) NULL,
    `received_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `processed_at` DATETIME(3) NULL,
    `outcome` VARCHAR(32) NULL,

    UNIQUE INDEX `webhook_events_event_id_key`(`event_id`),
    INDEX `webhook_events_processed_at_received_at_idx`(`processed_at`, `received_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `merchant_accounts` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `mid` VARCHAR(64) NOT NULL,
    `name` VARCHAR(191) NULL,
    `security_key` TEXT NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated_at` DATETIME(3) NOT NULL,

    UNIQUE INDEX `merchant_accounts_mid_key`(`mid`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `dispute_linkages` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `case_id` VARCHAR(64) NOT NULL,
    `case_number` VARCHAR(64) NULL,
    `mid` VARCHAR(64) NOT NULL,
    `gateway_transaction_id` VARCHAR(64) NOT NULL,
    `gateway_order_id` VARCHAR(128) NULL,
    `order_number` VARCHAR(20) NULL,
    `match_strategy` VARCHAR(64) NOT NULL,
    `amount` DECIMAL(10, 2) NULL,
    `auth_code` VARCHAR(32) NULL,
    `arn` VARCHAR(128) NULL,
    `transaction_date` DATE NULL,
    `reason_code` VARCHAR(32) NULL,
    `reason_desc` VARCHAR(255) NULL,
    `dispute_status` VARCHAR(64) NULL,
    `acquirer_data` LONGTEXT NOT NULL,
    `gateway_data` LONGTEXT NOT NULL,
    `linked_at` DATETIME(3) NOT NULL,
    `created_at` TIMESTAMP(0) NOT NULL DEFAULT CURRENT_TIMESTAMP(0),

    UNIQUE INDEX `dispute_linkages_case_id_key`(`case_id`),
    INDEX `dispute_linkages_order_number_idx`(`order_number`),
    INDEX `dispute_linkages_linked_at_idx`(`linked_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `chargebacks` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `case_id` VARCHAR(64) NOT NULL,
    `mid` VARCHAR(64) NOT NULL,
    `gateway_transaction_id` VARCHAR(64) NULL,
    `order_number` VARCHAR(20) NULL,
    `amount` DECIMAL(10, 2) NULL,
    `reason_code` VARCHAR(32) NULL,
    `reason_desc` VARCHAR(255) NULL,
    `fraud_response` LONGTEXT NULL,
    `fraud_submitted_at` DATETIME(3) NULL,
    `acquirer_data` LONGTEXT NOT NULL,
    `action_log` LONGTEXT NOT NULL,
    `created_at` TIMESTAMP(0) NOT NULL DEFAULT CURRENT_TIMESTAMP(0),

    UNIQUE INDEX `chargebacks_case_id_key`(`case_id`),
    INDEX `chargebacks_order_number_idx`(`order_number`),
    INDEX `chargebacks_created_at_idx`(`created_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
