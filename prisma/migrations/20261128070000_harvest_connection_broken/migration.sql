-- A Harvest connection whose refresh failed for good (revoked or invalid refresh token) until the staff member reconnects.
ALTER TABLE `staff_oauth_connections` ADD COLUMN `broken_at` DATETIME(3) NULL,
    ADD COLUMN `broken_reason` VARCHAR(255) NULL;
