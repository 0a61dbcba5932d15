-- Substring search on order number, ERP sales order number and transaction id from three characters
-- (spec 1, 4.4) without scanning the orders table: every three-character piece of the three fields,
-- kept by triggers so rows written by plain SQL (an import, a restore, a bench's seeding) are found too.
-- MariaDB's full-text parsers split on words, not n-grams, hence a table of our own. The collation is the
-- orders table's (case-insensitive), so `B49` and `b49` are one gram, as LIKE matches them.
CREATE TABLE `order_search_grams` (
    `gram` VARCHAR(3) NOT NULL,
    `order_id` INTEGER NOT NULL,

    INDEX `order_search_grams_order_id_idx`(`order_id`),
    PRIMARY KEY (`gram`, `order_id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- Orders per site in 16 slots (order id modulo 16): the list's `total` without a filter, or with only a
-- site, read instead of counted. Slots keep concurrent intakes of one site off a single hot row.
CREATE TABLE `order_counts` (
    `site_id` INTEGER NOT NULL,
    `slot` TINYINT NOT NULL,
    `orders` BIGINT NOT NULL,

    PRIMARY KEY (`site_id`, `slot`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- GET /stats counts only the orders still in flight; these make each count a range of them, not a scan.
CREATE INDEX `orders_imported_verified_idx` ON `orders`(`imported`, `verified`);
CREATE INDEX `orders_imported_imported_at_idx` ON `orders`(`imported`, `imported_at`);

CREATE TRIGGER `orders_search_insert` AFTER INSERT ON `orders` FOR EACH ROW
BEGIN
  INSERT IGNORE INTO `order_search_grams` (`gram`, `order_id`)
    SELECT SUBSTRING(f.v, s.seq, 3), NEW.`id`
    FROM (SELECT NEW.`number` AS v UNION ALL SELECT NEW.`erp_sales_order_number` UNION ALL SELECT NEW.`trans_id`) f
    JOIN `seq_1_to_48` s ON s.seq <= CHAR_LENGTH(f.v) - 2;
  INSERT INTO `order_counts` (`site_id`, `slot`, `orders`) VALUES (NEW.`site_id`, NEW.`id` % 16, 1)
    ON DUPLICATE KEY UPDATE `orders` = `orders` + 1;
END;

CREATE TRIGGER `orders_search_update` AFTER UPDATE ON `orders` FOR EACH ROW
BEGIN
  IF NOT (NEW.`number` <=> OLD.`number`) OR NOT (NEW.`erp_sales_order_number` <=> OLD.`erp_sales_order_number`) OR NOT (NEW.`trans_id` <=> OLD.`trans_id`) THEN
    DELETE FROM `order_search_grams` WHERE `order_id` = OLD.`id`;
    INSERT IGNORE INTO `order_search_grams` (`gram`, `order_id`)
      SELECT SUBSTRING(f.v, s.seq, 3), NEW.`id`
      FROM (SELECT NEW.`number` AS v UNION ALL SELECT NEW.`erp_sales_order_number` UNION ALL SELECT NEW.`trans_id`) f
      JOIN `seq_1_to_48` s ON s.seq <= CHAR_LENGTH(f.v) - 2;
  END IF;
  IF NEW.`site_id` <> OLD.`site_id` THEN
    UPDATE `order_counts` SET `orders` = `orders` - 1 WHERE `site_id` = OLD.`site_id` AND `slot` = OLD.`id` % 16;
    INSERT INTO `order_counts` (`site_id`, `slot`, `orders`) VALUES (NEW.`site_id`, NEW.`id` % 16, 1)
      ON DUPLICATE KEY UPDATE `orders` = `orders` + 1;
  END IF;
END;

CREATE TRIGGER `orders_search_delete` AFTER DELETE ON `orders` FOR EACH ROW
BEGIN
  DELETE FROM `order_search_grams` WHERE `order_id` = OLD.`id`;
  UPDATE `order_counts` SET `orders` = `orders` - 1 WHERE `site_id` = OLD.`site_id` AND `slot` = OLD.`id` % 16;
END;

-- Orders already stored before this migration.
INSERT IGNORE INTO `order_search_grams` (`gram`, `order_id`)
  SELECT SUBSTRING(f.v, s.seq, 3), f.id
  FROM (SELECT `id`, `number` AS v FROM `orders` UNION ALL SELECT `id`, `erp_sales_order_number` FROM `orders` UNION ALL SELECT `id`, `trans_id` FROM `orders`) f
  JOIN `seq_1_to_48` s ON s.seq <= CHAR_LENGTH(f.v) - 2;
INSERT INTO `order_counts` (`site_id`, `slot`, `orders`)
  SELECT `site_id`, `id` % 16, COUNT(*) FROM `orders` GROUP BY `site_id`, `id` % 16;
