-- A rebuild (`pnpm cli orders:reindex`, bench:data's seeding) writes a range of orders' grams in one
-- statement. Unsorted, they reached the primary key (order_id, gram) out of order and every page split
-- half full and was never filled again: at ten million orders the key took 26 GB, a quarter of it rows.
-- In key order each page fills before the next begins, about four times fewer pages (measured on
-- 300,000 orders: 42,624 pages unsorted, 10,926 sorted, in the same time). A database rebuilt before
-- this keeps its loose pages until `pnpm cli orders:reindex` writes them again.
DROP PROCEDURE IF EXISTS `order_search_add_range`;
CREATE PROCEDURE `order_search_add_range`(IN p_from INT, IN p_to INT)
BEGIN
  INSERT IGNORE INTO `order_search_grams` (`order_id`, `gram`, `dateadded`)
    SELECT f.`id`, SUBSTRING(f.v, s.seq, k.n) AS gram, f.`dateadded`
    FROM (SELECT `id`, `dateadded`, `number` AS v FROM `orders` WHERE `id` BETWEEN p_from AND p_to
          UNION ALL SELECT `id`, `dateadded`, `erp_sales_order_number` FROM `orders` WHERE `id` BETWEEN p_from AND p_to
          UNION ALL SELECT `id`, `dateadded`, `trans_id` FROM `orders` WHERE `id` BETWEEN p_from AND p_to) f
    JOIN (SELECT 3 AS n UNION ALL SELECT 4) k
    JOIN `seq_1_to_48` s ON s.seq <= CHAR_LENGTH(f.v) - k.n + 1
    ORDER BY f.`id`, gram;
END;
