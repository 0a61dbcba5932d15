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

-- How many orders there are of each site and each value of the list's filters (imported, verified,
-- ship_status, payment_method, failed or not): the list's `total` for any filter but a search or a failure
-- time, read as a sum of a few rows instead of counted over millions. Four slots (order id modulo 4)
-- keep concurrent intakes of one site off a single hot row.
CREATE TABLE `order_counts` (
    `site_id` INTEGER NOT NULL,
    `slot` TINYINT NOT NULL,
    `imported` TINYINT NOT NULL,
    `verified` TINYINT NOT NULL,
    `ship_status` TINYINT NOT NULL,
    `payment_method` VARCHAR(10) NOT NULL,
    `failed` TINYINT NOT NULL,
    `orders` BIGINT NOT NULL,

    PRIMARY KEY (`site_id`, `slot`, `imported`, `verified`, `ship_status`, `payment_method`, `failed`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- A site's orders newest first (GET /orders?site_id=), a page deep in them included, as one index range.
CREATE INDEX `orders_site_id_dateadded_idx` ON `orders`(`site_id`, `dateadded`);
-- GET /stats counts the orders exported today as a range of this index, not a scan.
CREATE INDEX `orders_imported_imported_at_idx` ON `orders`(`imported`, `imported_at`);

CREATE TRIGGER `orders_search_insert` AFTER INSERT ON `orders` FOR EACH ROW
BEGIN
  INSERT IGNORE INTO `order_search_grams` (`gram`, `order_id`)
    SELECT SUBSTRING(f.v, s.seq, 3), NEW.`id`
    FROM (SELECT NEW.`number` AS v UNION ALL SELECT NEW.`erp_sales_order_number` UNION ALL SELECT NEW.`trans_id`) f
    JOIN `seq_1_to_48` s ON s.seq <= CHAR_LENGTH(f.v) - 2;
  INSERT INTO `order_counts` (`site_id`, `slot`, `imported`, `verified`, `ship_status`, `payment_method`, `failed`, `orders`)
    VALUES (NEW.`site_id`, NEW.`id` % 4, NEW.`imported`, NEW.`verified`, NEW.`ship_status`, NEW.`payment_method`, NEW.`failed_at` IS NOT NULL, 1)
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
  IF NEW.`site_id` <> OLD.`site_id` OR NEW.`imported` <> OLD.`imported` OR NEW.`verified` <> OLD.`verified` OR NEW.`ship_status` <> OLD.`ship_status`
     OR NEW.`payment_method` <> OLD.`payment_method` OR (NEW.`failed_at` IS NULL) <> (OLD.`failed_at` IS NULL) THEN
    UPDATE `order_counts` SET `orders` = `orders` - 1
    WHERE `site_id` = OLD.`site_id` AND `slot` = OLD.`id` % 4 AND `imported` = OLD.`imported` AND `verified` = OLD.`verified`
      AND `ship_status` = OLD.`ship_status` AND `payment_method` = OLD.`payment_method` AND `failed` = (OLD.`failed_at` IS NOT NULL);
    INSERT INTO `order_counts` (`site_id`, `slot`, `imported`, `verified`, `ship_status`, `payment_method`, `failed`, `orders`)
    VALUES (NEW.`site_id`, NEW.`id` % 4, NEW.`imported`, NEW.`verified`, NEW.`ship_status`, NEW.`payment_method`, NEW.`failed_at` IS NOT NULL, 1)
    ON DUPLICATE KEY UPDATE `orders` = `orders` + 1;
  END IF;
END;

CREATE TRIGGER `orders_search_delete` AFTER DELETE ON `orders` FOR EACH ROW
BEGIN
  DELETE FROM `order_search_grams` WHERE `order_id` = OLD.`id`;
  UPDATE `order_counts` SET `orders` = `orders` - 1
    WHERE `site_id` = OLD.`site_id` AND `slot` = OLD.`id` % 4 AND `imported` = OLD.`imported` AND `verified` = OLD.`verified`
      AND `ship_status` = OLD.`ship_status` AND `payment_method` = OLD.`payment_method` AND `failed` = (OLD.`failed_at` IS NOT NULL);
END;

-- Orders already stored before this migration.
INSERT IGNORE INTO `order_search_grams` (`gram`, `order_id`)
  SELECT SUBSTRING(f.v, s.seq, 3), f.id
  FROM (SELECT `id`, `number` AS v FROM `orders` UNION ALL SELECT `id`, `erp_sales_order_number` FROM `orders` UNION ALL SELECT `id`, `trans_id` FROM `orders`) f
  JOIN `seq_1_to_48` s ON s.seq <= CHAR_LENGTH(f.v) - 2;
INSERT INTO `order_counts` (`site_id`, `slot`, `imported`, `verified`, `ship_status`, `payment_method`, `failed`, `orders`)
  SELECT `site_id`, `id` % 4, `imported`, `verified`, `ship_status`, `payment_method`, `failed_at` IS NOT NULL, COUNT(*) FROM `orders`
  GROUP BY `site_id`, `id` % 4, `imported`, `verified`, `ship_status`, `payment_method`, `failed_at` IS NOT NULL;
