-- CreateTable
CREATE TABLE `knowledge_vectors` (
    `id` VARCHAR(191) NOT NULL,
    `source` VARCHAR(16) NOT NULL,
    `title` VARCHAR(255) NOT NULL,
    `ref` VARCHAR(500) NOT NULL,
    `content_hash` CHAR(64) NOT NULL,
    `model` VARCHAR(64) NOT NULL,
    `dimension` INTEGER NOT NULL,
    `vector` LONGBLOB NULL,
    `embedded_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `knowledge_vectors_model_embedded_at_idx`(`model`, `embedded_at`),
    INDEX `knowledge_vectors_source_idx`(`source`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `knowledge_documents` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `vector_id` VARCHAR(191) NULL,
    `source` VARCHAR(16) NOT NULL,
    `title` VARCHAR(255) NOT NULL,
    `location` VARCHAR(500) NOT NULL,
    `content` MEDIUMTEXT NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated_at` DATETIME(3) NOT NULL,

    UNIQUE INDEX `knowledge_documents_vector_id_key`(`vector_id`),
    UNIQUE INDEX `knowledge_documents_source_location_key`(`source`, `location`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `assistant_conversations` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `staff_id` INTEGER NOT NULL,
    `title` VARCHAR(255) NULL,
    `created` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    `updated` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `assistant_conversations_staff_id_updated_idx`(`staff_id`, `updated`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE `assistant_messages` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `conversation_id` INTEGER NOT NULL,
    `role` VARCHAR(16) NOT NULL,
    `content` MEDIUMTEXT NOT NULL,
    `cited_tickets` JSON NULL,
    `created` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `assistant_messages_conversation_id_id_idx`(`conversation_id`, `id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- AddForeignKey
ALTER TABLE `assistant_messages` ADD CONSTRAINT `assistant_messages_conversation_id_fkey` FOREIGN KEY (`conversation_id`) REFERENCES `assistant_conversations`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;
