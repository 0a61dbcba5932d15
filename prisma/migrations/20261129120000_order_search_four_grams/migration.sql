-- Four-character grams beside the three-character ones (issue 44). Order, ERP and transaction numbers are
-- sequential, so at ten million orders every trigram of a whole number is common (`B50` is in 111,111 order
-- numbers) and a term of four characters or more walked as many postings; its rarest 4-gram (`B500`) has a
-- tenth of them. A three-character term still reads its one trigram. About 17 more gram rows per order.
ALTER TABLE `order_search_grams` MODIFY `gram` VARCHAR(4) NOT NULL;
ALTER TABLE `order_gram_counts` MODIFY `gram` VARCHAR(4) NOT NULL;

DROP PROCEDURE `order_search_add`;
CREATE PROCEDURE `order_search_add`(IN p_id INT, IN p_dateadded DATETIME(3), IN p_number VARCHAR(20), IN p_erp VARCHAR(50), IN p_trans VARCHAR(20))
BEGIN
  INSERT IGNORE INTO `order_search_grams` (`order_id`, `gram`, `dateadded`)
    SELECT p_id, SUBSTRING(f.v, s.seq, k.n), p_dateadded
    FROM (SELECT p_number AS v UNION ALL SELECT p_erp UNION ALL SELECT p_trans) f
    JOIN (SELECT 3 AS n UNION ALL SELECT 4) k
    JOIN `seq_1_to_48` s ON s.seq <= CHAR_LENGTH(f.v) - k.n + 1;
  INSERT INTO `order_gram_counts` (`gram`, `slot`, `orders`)
    SELECT `gram`, p_id % 4, 1 FROM `order_search_grams` WHERE `order_id` = p_id ORDER BY `gram`
    ON DUPLICATE KEY UPDATE `orders` = `orders` + 1;
END;

-- The grams of the orders whose ids are in a range, their counts aside: what a rebuild
-- (`pnpm cli orders:reindex`) and this migration's backfill write, a range at a time.
CREATE PROCEDURE `order_search_add_range`(IN p_from INT, IN p_to INT)
BEGIN
  INSERT IGNORE INTO `order_search_grams` (`order_id`, `gram`, `dateadded`)
    SELECT f.`id`, SUBSTRING(f.v, s.seq, k.n), f.`dateadded`
    FROM (SELECT `id`, `dateadded`, `number` AS v FROM `orders` WHERE `id` BETWEEN p_from AND p_to
          UNION ALL SELECT `id`, `dateadded`, `erp_sales_order_number` FROM `orders` WHERE `id` BETWEEN p_from AND p_to
          UNION ALL SELECT `id`, `dateadded`, `trans_id` FROM `orders` WHERE `id` BETWEEN p_from AND p_to) f
    JOIN (SELECT 3 AS n UNION ALL SELECT 4) k
    JOIN `seq_1_to_48` s ON s.seq <= CHAR_LENGTH(f.v) - k.n + 1;
END;

-- The 4-grams of the orders already stored, 20,000 orders a statement, then their counts.
BEGIN NOT ATOMIC
  DECLARE low INT;
  DECLARE high INT;
  SELECT MIN(`id`), MAX(`id`) INTO low, high FROM `orders`;
  WHILE low <= high DO
    CALL `order_search_add_range`(low, low + 19999);
    SET low = low + 20000;
  END WHILE;
END;
INSERT INTO `order_gram_counts` (`gram`, `slot`, `orders`)
  SELECT `gram`, `order_id` % 4, COUNT(*) FROM `order_search_grams` WHERE CHAR_LENGTH(`gram`) = 4 GROUP BY `gram`, `order_id` % 4;
