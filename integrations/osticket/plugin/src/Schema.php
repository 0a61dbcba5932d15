<?php

/** The plugin's own tables in osTicket's database (created on enable, and by bin/configure.php). */
class PlatformBridgeSchema {
    static function outbox(): string { return TABLE_PREFIX.'platform_outbox'; }

    static function state(): string { return TABLE_PREFIX.'platform_bridge_state'; }

    static function install(): void {
        db_query('CREATE TABLE IF NOT EXISTS `'.self::outbox().'` (
            `id` bigint unsigned NOT NULL AUTO_INCREMENT,
            `kind` varchar(32) NOT NULL,
            `body` mediumtext NOT NULL,
            `attempts` int unsigned NOT NULL DEFAULT 0,
            `next_attempt_at` datetime NOT NULL,
            `claim` varchar(32) DEFAULT NULL,
            `claimed_until` datetime DEFAULT NULL,
            `sent_at` datetime DEFAULT NULL,
            `status` smallint DEFAULT NULL,
            `last_error` varchar(255) DEFAULT NULL,
            `created` datetime NOT NULL,
            PRIMARY KEY (`id`),
            KEY `due` (`sent_at`, `next_attempt_at`)
        ) DEFAULT CHARSET=utf8mb4');
        db_query('CREATE TABLE IF NOT EXISTS `'.self::state().'` (
            `name` varchar(64) NOT NULL,
            `value` varchar(255) NOT NULL,
            PRIMARY KEY (`name`)
        ) DEFAULT CHARSET=utf8mb4');
    }

    static function getState(string $name, string $default): string {
        $res = db_query('SELECT `value` FROM `'.self::state().'` WHERE `name`='.db_input($name));
        $row = $res ? db_fetch_array($res) : null;
        return $row ? $row['value'] : $default;
    }

    /** Sets the value only if it still is `$expected`: answers whether this caller changed it. */
    static function swapState(string $name, string $expected, string $value): bool {
        db_query('UPDATE `'.self::state().'` SET `value`='.db_input($value).' WHERE `name`='.db_input($name).' AND `value`='.db_input($expected));
        return db_affected_rows() === 1;
    }

    static function setState(string $name, string $value): void {
        db_query('INSERT INTO `'.self::state().'` (`name`, `value`) VALUES ('.db_input($name).', '.db_input($value).')'
            .' ON DUPLICATE KEY UPDATE `value`=VALUES(`value`)');
    }
}
