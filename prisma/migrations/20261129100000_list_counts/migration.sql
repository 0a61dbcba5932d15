-- The totals of the dispute, linkage, chargeback and snapshot lists at millions of rows (issue 44), read as
-- sums of a few kept counts instead of counted over the rows, as order_counts does for the order list: per
-- UTC day of the date each list's from/to filters on, and per value of its other filters, so a range of days
-- is one range of a primary key (the partial days at a range's ends are counted from the rows' date index).
-- Triggers keep them for rows written by the platform or by plain SQL and for retention's deletes; four slots
-- (id modulo 4) keep concurrent writers of one day off a single row. Filters on a case, an order number, a
-- ticket or an event id still count the rows: their own index makes that cheap.

-- Stored webhook deliveries by source, day received, outcome ('' while none) and whether processing has
-- yet to end (processed_at IS NULL: the dispute list's `pending`).
CREATE TABLE `webhook_event_counts` (
    `source` VARCHAR(32) NOT NULL,
    `day` DATE NOT NULL,
    `outcome` VARCHAR(32) NOT NULL,
    `open` TINYINT NOT NULL,
    `slot` TINYINT NOT NULL,
    `events` BIGINT NOT NULL,

    PRIMARY KEY (`source`, `day`, `outcome`, `open`, `slot`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- Linkages by day linked and chargebacks by UTC day created (created_at is a TIMESTAMP: its day is taken
-- from the epoch, whatever the writer's session time zone); `list` says which.
CREATE TABLE `dispute_case_counts` (
    `list` VARCHAR(16) NOT NULL,
    `day` DATE NOT NULL,
    `slot` TINYINT NOT NULL,
    `cases` BIGINT NOT NULL,

    PRIMARY KEY (`list`, `day`, `slot`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- Snapshots by day created and urgency level.
CREATE TABLE `ai_snapshot_counts` (
    `day` DATE NOT NULL,
    `urgency` VARCHAR(8) NOT NULL,
    `slot` TINYINT NOT NULL,
    `snapshots` BIGINT NOT NULL,

    PRIMARY KEY (`day`, `urgency`, `slot`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

CREATE TRIGGER `webhook_events_count_insert` AFTER INSERT ON `webhook_events` FOR EACH ROW
  INSERT INTO `webhook_event_counts` (`source`, `day`, `outcome`, `open`, `slot`, `events`)
    VALUES (NEW.`source`, DATE(NEW.`received_at`), COALESCE(NEW.`outcome`, ''), NEW.`processed_at` IS NULL, NEW.`id` % 4, 1)
    ON DUPLICATE KEY UPDATE `events` = `events` + 1;

CREATE TRIGGER `webhook_events_count_update` AFTER UPDATE ON `webhook_events` FOR EACH ROW
BEGIN
  IF NEW.`source` <> OLD.`source` OR DATE(NEW.`received_at`) <> DATE(OLD.`received_at`) OR NOT (NEW.`outcome` <=> OLD.`outcome`)
     OR (NEW.`processed_at` IS NULL) <> (OLD.`processed_at` IS NULL) OR NEW.`id` <> OLD.`id` THEN
    UPDATE `webhook_event_counts` SET `events` = `events` - 1
      WHERE `source` = OLD.`source` AND `day` = DATE(OLD.`received_at`) AND `outcome` = COALESCE(OLD.`outcome`, '')
        AND `open` = (OLD.`processed_at` IS NULL) AND `slot` = OLD.`id` % 4;
    INSERT INTO `webhook_event_counts` (`source`, `day`, `outcome`, `open`, `slot`, `events`)
      VALUES (NEW.`source`, DATE(NEW.`received_at`), COALESCE(NEW.`outcome`, ''), NEW.`processed_at` IS NULL, NEW.`id` % 4, 1)
      ON DUPLICATE KEY UPDATE `events` = `events` + 1;
  END IF;
END;

CREATE TRIGGER `webhook_events_count_delete` AFTER DELETE ON `webhook_events` FOR EACH ROW
  UPDATE `webhook_event_counts` SET `events` = `events` - 1
    WHERE `source` = OLD.`source` AND `day` = DATE(OLD.`received_at`) AND `outcome` = COALESCE(OLD.`outcome`, '')
      AND `open` = (OLD.`processed_at` IS NULL) AND `slot` = OLD.`id` % 4;

CREATE TRIGGER `dispute_linkages_count_insert` AFTER INSERT ON `dispute_linkages` FOR EACH ROW
  INSERT INTO `dispute_case_counts` (`list`, `day`, `slot`, `cases`) VALUES ('linkages', DATE(NEW.`linked_at`), NEW.`id` % 4, 1)
    ON DUPLICATE KEY UPDATE `cases` = `cases` + 1;

CREATE TRIGGER `dispute_linkages_count_update` AFTER UPDATE ON `dispute_linkages` FOR EACH ROW
BEGIN
  IF DATE(NEW.`linked_at`) <> DATE(OLD.`linked_at`) OR NEW.`id` <> OLD.`id` THEN
    UPDATE `dispute_case_counts` SET `cases` = `cases` - 1 WHERE `list` = 'linkages' AND `day` = DATE(OLD.`linked_at`) AND `slot` = OLD.`id` % 4;
    INSERT INTO `dispute_case_counts` (`list`, `day`, `slot`, `cases`) VALUES ('linkages', DATE(NEW.`linked_at`), NEW.`id` % 4, 1)
      ON DUPLICATE KEY UPDATE `cases` = `cases` + 1;
  END IF;
END;

CREATE TRIGGER `dispute_linkages_count_delete` AFTER DELETE ON `dispute_linkages` FOR EACH ROW
  UPDATE `dispute_case_counts` SET `cases` = `cases` - 1 WHERE `list` = 'linkages' AND `day` = DATE(OLD.`linked_at`) AND `slot` = OLD.`id` % 4;

CREATE TRIGGER `chargebacks_count_insert` AFTER INSERT ON `chargebacks` FOR EACH ROW
  INSERT INTO `dispute_case_counts` (`list`, `day`, `slot`, `cases`)
    VALUES ('chargebacks', DATE('1970-01-01' + INTERVAL UNIX_TIMESTAMP(NEW.`created_at`) SECOND), NEW.`id` % 4, 1)
    ON DUPLICATE KEY UPDATE `cases` = `cases` + 1;

CREATE TRIGGER `chargebacks_count_update` AFTER UPDATE ON `chargebacks` FOR EACH ROW
BEGIN
  IF NEW.`created_at` <> OLD.`created_at` OR NEW.`id` <> OLD.`id` THEN
    UPDATE `dispute_case_counts` SET `cases` = `cases` - 1
      WHERE `list` = 'chargebacks' AND `day` = DATE('1970-01-01' + INTERVAL UNIX_TIMESTAMP(OLD.`created_at`) SECOND) AND `slot` = OLD.`id` % 4;
    INSERT INTO `dispute_case_counts` (`list`, `day`, `slot`, `cases`)
      VALUES ('chargebacks', DATE('1970-01-01' + INTERVAL UNIX_TIMESTAMP(NEW.`created_at`) SECOND), NEW.`id` % 4, 1)
      ON DUPLICATE KEY UPDATE `cases` = `cases` + 1;
  END IF;
END;

CREATE TRIGGER `chargebacks_count_delete` AFTER DELETE ON `chargebacks` FOR EACH ROW
  UPDATE `dispute_case_counts` SET `cases` = `cases` - 1
    WHERE `list` = 'chargebacks' AND `day` = DATE('1970-01-01' + INTERVAL UNIX_TIMESTAMP(OLD.`created_at`) SECOND) AND `slot` = OLD.`id` % 4;

CREATE TRIGGER `ai_snapshots_count_insert` AFTER INSERT ON `ai_snapshots` FOR EACH ROW
  INSERT INTO `ai_snapshot_counts` (`day`, `urgency`, `slot`, `snapshots`) VALUES (DATE(NEW.`created`), NEW.`urgency`, NEW.`id` % 4, 1)
    ON DUPLICATE KEY UPDATE `snapshots` = `snapshots` + 1;

CREATE TRIGGER `ai_snapshots_count_update` AFTER UPDATE ON `ai_snapshots` FOR EACH ROW
BEGIN
  IF DATE(NEW.`created`) <> DATE(OLD.`created`) OR NEW.`urgency` <> OLD.`urgency` OR NEW.`id` <> OLD.`id` THEN
    UPDATE `ai_snapshot_counts` SET `snapshots` = `snapshots` - 1 WHERE `day` = DATE(OLD.`created`) AND `urgency` = OLD.`urgency` AND `slot` = OLD.`id` % 4;
    INSERT INTO `ai_snapshot_counts` (`day`, `urgency`, `slot`, `snapshots`) VALUES (DATE(NEW.`created`), NEW.`urgency`, NEW.`id` % 4, 1)
      ON DUPLICATE KEY UPDATE `snapshots` = `snapshots` + 1;
  END IF;
END;

CREATE TRIGGER `ai_snapshots_count_delete` AFTER DELETE ON `ai_snapshots` FOR EACH ROW
  UPDATE `ai_snapshot_counts` SET `snapshots` = `snapshots` - 1 WHERE `day` = DATE(OLD.`created`) AND `urgency` = OLD.`urgency` AND `slot` = OLD.`id` % 4;

-- Rows already stored before this migration.
INSERT INTO `webhook_event_counts` (`source`, `day`, `outcome`, `open`, `slot`, `events`)
  SELECT `source`, DATE(`received_at`), COALESCE(`outcome`, ''), `processed_at` IS NULL, `id` % 4, COUNT(*) FROM `webhook_events`
  GROUP BY `source`, DATE(`received_at`), COALESCE(`outcome`, ''), `processed_at` IS NULL, `id` % 4;
INSERT INTO `dispute_case_counts` (`list`, `day`, `slot`, `cases`)
  SELECT 'linkages', DATE(`linked_at`), `id` % 4, COUNT(*) FROM `dispute_linkages` GROUP BY DATE(`linked_at`), `id` % 4;
INSERT INTO `dispute_case_counts` (`list`, `day`, `slot`, `cases`)
  SELECT 'chargebacks', DATE('1970-01-01' + INTERVAL UNIX_TIMESTAMP(`created_at`) SECOND), `id` % 4, COUNT(*) FROM `chargebacks`
  GROUP BY DATE('1970-01-01' + INTERVAL UNIX_TIMESTAMP(`created_at`) SECOND), `id` % 4;
INSERT INTO `ai_snapshot_counts` (`day`, `urgency`, `slot`, `snapshots`)
  SELECT DATE(`created`), `urgency`, `id` % 4, COUNT(*) FROM `ai_snapshots` GROUP BY DATE(`created`), `urgency`, `id` % 4;
