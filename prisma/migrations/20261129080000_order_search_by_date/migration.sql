-- A three-character search's page and total at millions of orders (issue 44): each gram row carries its
-- order's dateadded, so the orders holding a gram are read newest first straight from one index range
-- (gram, dateadded, order_id), however old they are; and each gram's number of orders is kept, so a
-- one-gram term's total is a sum of four rows. The gram rows are keyed by order (what the triggers delete
-- by); a lookup of one order's gram seeks (gram, dateadded, order_id) with the order's own date.
DROP TRIGGER IF EXISTS `orders_search_insert`;
DROP TRIGGER IF EXISTS `orders_search_update`;
DROP TRIGGER IF EXISTS `orders_search_delete`;
DROP TABLE `order_search_grams`;

CREATE TABLE `order_search_grams` (
    `order_id` INTEGER NOT NULL,
    `gram` VARCHAR(3) NOT NULL,
    `dateadded` DATETIME(3) NOT NULL,

    INDEX `order_search_grams_gram_dateadded_order_id_idx`(`gram`, `dateadded`, `order_id`),
    PRIMARY KEY (`order_id`, `gram`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- How many orders hold each gram, in four slots (order id modulo 4) so concurrent intakes rarely share a row.
CREATE TABLE `order_gram_counts` (
    `gram` VARCHAR(3) NOT NULL,
    `slot` TINYINT NOT NULL,
    `orders` BIGINT NOT NULL,

    PRIMARY KEY (`gram`, `slot`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- One order's grams in and out, the counts with them. Counts are touched in gram order, so two intakes
-- sharing a slot lock their common rows in the same order and never deadlock on them.
CREATE PROCEDURE `order_search_add`(IN p_id INT, IN p_dateadded DATETIME(3), IN p_number VARCHAR(20), IN p_erp VARCHAR(50), IN p_trans VARCHAR(20))
BEGIN
  INSERT IGNORE INTO `order_search_grams` (`order_id`, `gram`, `dateadded`)
    SELECT p_id, SUBSTRING(f.v, s.seq, 3), p_dateadded
    FROM (SELECT p_number AS v UNION ALL SELECT p_erp UNION ALL SELECT p_trans) f
    JOIN `seq_1_to_48` s ON s.seq <= CHAR_LENGTH(f.v) - 2;
  INSERT INTO `order_gram_counts` (`gram`, `slot`, `orders`)
    SELECT `gram`, p_id % 4, 1 FROM `order_search_grams` WHERE `order_id` = p_id ORDER BY `gram`
    ON DUPLICATE KEY UPDATE `orders` = `orders` + 1;
END;

CREATE PROCEDURE `order_search_remove`(IN p_id INT)
BEGIN
  UPDATE `order_gram_counts` c JOIN `order_search_grams` g ON g.`gram` = c.`gram` AND c.`slot` = p_id % 4
    SET c.`orders` = c.`orders` - 1 WHERE g.`order_id` = p_id;
  DELETE FROM `order_search_grams` WHERE `order_id` = p_id;
END;

CREATE TRIGGER `orders_search_insert` AFTER INSERT ON `orders` FOR EACH ROW
BEGIN
  CALL `order_search_add`(NEW.`id`, NEW.`dateadded`, NEW.`number`, NEW.`erp_sales_order_number`, NEW.`trans_id`);
  INSERT INTO `order_counts` (`site_id`, `slot`, `imported`, `verified`, `ship_status`, `payment_method`, `failed`, `orders`)
    VALUES (NEW.`site_id`, NEW.`id` % 4, NEW.`imported`, NEW.`verified`, NEW.`ship_status`, NEW.`payment_method`, NEW.`failed_at` IS NOT NULL, 1)
    ON DUPLICATE KEY UPDATE `orders` = `orders` + 1;
END;

CREATE TRIGGER `orders_search_update` AFTER UPDATE ON `orders` FOR EACH ROW
BEGIN
  IF NOT (NEW.`number` <=> OLD.`number`) OR NOT (NEW.`erp_sales_order_number` <=> OLD.`erp_sales_order_number`) OR NOT (NEW.`trans_id` <=> OLD.`trans_id`)
     OR NEW.`dateadded` <> OLD.`dateadded` OR NEW.`id` <> OLD.`id` THEN
    CALL `order_search_remove`(OLD.`id`);
    CALL `order_search_add`(NEW.`id`, NEW.`dateadded`, NEW.`number`, NEW.`erp_sales_order_number`, NEW.`trans_id`);
  END IF;
  IF NEW.`site_id` <> OLD.`site_id` OR NEW.`imported` <> OLD.`imported` OR NEW.`verified` <> OLD.`verified` OR NEW.`ship_status` <> OLD.`ship_status`
     OR NEW.`payment_method` <> OLD.`payment_method` OR (NEW.`failed_at` IS NULL) <> (OLD.`failed_at` IS NULL) OR NEW.`id` <> OLD.`id` THEN
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
  CALL `order_search_remove`(OLD.`id`);
  UPDATE `order_counts` SET `orders` = `orders` - 1
    WHERE `site_id` = OLD.`site_id` AND `slot` = OLD.`id` % 4 AND `imported` = OLD.`imported` AND `verified` = OLD.`verified`
      AND `ship_status` = OLD.`ship_status` AND `payment_method` = OLD.`payment_method` AND `failed` = (OLD.`failed_at` IS NOT NULL);
END;

-- Orders already stored before this migration.
INSERT IGNORE INTO `order_search_grams` (`order_id`, `gram`, `dateadded`)
  SELECT f.id, SUBSTRING(f.v, s.seq, 3), f.dateadded
  FROM (SELECT `id`, `dateadded`, `number` AS v FROM `orders`
        UNION ALL SELECT `id`, `dateadded`, `erp_sales_order_number` FROM `orders`
        UNION ALL SELECT `id`, `dateadded`, `trans_id` FROM `orders`) f
  JOIN `seq_1_to_48` s ON s.seq <= CHAR_LENGTH(f.v) - 2;
INSERT INTO `order_gram_counts` (`gram`, `slot`, `orders`)
  SELECT `gram`, `order_id` % 4, COUNT(*) FROM `order_search_grams` GROUP BY `gram`, `order_id` % 4;
