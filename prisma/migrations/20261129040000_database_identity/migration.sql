-- CreateTable
CREATE TABLE `database_identity` (
    `id` TINYINT NOT NULL DEFAULT 1,
    `identity` CHAR(36) NOT NULL,
    `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- InsertIdentity: made once, here; a queue prefix records it (docs/operations.md, "A database and its queues")
INSERT INTO `database_identity` (`id`, `identity`) VALUES (1, UUID());
