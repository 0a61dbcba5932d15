-- Staff directory changes that move where alerts go, with the signal that made them (shown on the console's operations page).
CREATE TABLE `staff_recipient_changes` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `staff_id` INTEGER NOT NULL,
    `staff_name` VARCHAR(255) NOT NULL,
    `changes` TEXT NOT NULL,
    `source` VARCHAR(32) NOT NULL,
    `signal` TEXT NOT NULL,
    `changed_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),

    INDEX `staff_recipient_changes_changed_at_idx`(`changed_at`),
    INDEX `staff_recipient_changes_staff_id_idx`(`staff_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
