<?php

/**
 * Signals wait here until the platform has them: written in the request that
 * caused them, sent at once with a short timeout, and otherwise by cron with
 * backoff. The platform dedupes by osTicket ids, so a second delivery after a
 * lost answer is harmless.
 */
class PlatformOutbox {
    /** Rows a cron run sends at most (the rest wait for the next run). */
    const BATCH = 200;
    /** How long a sender owns the rows it claimed (a crashed sender's rows come back after this). */
    const CLAIM_SECONDS = 120;
    /** Delivered rows are kept this long, for support questions. */
    const KEEP_DAYS = 7;

    /** What the sends of this outbox showed (PlatformBreaker reads them): the platform answered, or was unavailable. */
    public bool $reached = false;
    public bool $unavailable = false;

    function __construct(private PlatformClient $client) {}

    /** Stores the signals; answers their row ids. */
    static function add(array $signals): array {
        $ids = array();
        foreach ($signals as $body) {
            $json = json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE);
            $ok = db_query('INSERT INTO `'.PlatformBridgeSchema::outbox().'` (`kind`, `body`, `next_attempt_at`, `created`) VALUES ('
                .db_input($body['signal']).', '.db_input($json).', NOW(), NOW())');
            if ($ok) $ids[] = (int) db_insert_id();
        }
        return $ids;
    }

    /** Sends these rows now (the request's own signals); whatever fails stays for cron. */
    function sendNow(array $ids, float $timeout): void {
        if (!$ids) return;
        $this->deliver($this->claim('`id` IN ('.implode(',', array_map('intval', $ids)).')', count($ids)), $timeout);
    }

    /** Cron: every row that is due, oldest first. */
    function sendDue(float $timeout): int {
        db_query('DELETE FROM `'.PlatformBridgeSchema::outbox().'` WHERE `sent_at` < NOW() - INTERVAL '.self::KEEP_DAYS.' DAY');
        return $this->deliver($this->claim('`next_attempt_at` <= NOW()', self::BATCH), $timeout);
    }

    private function claim(string $where, int $limit): array {
        $token = bin2hex(random_bytes(16));
        $table = PlatformBridgeSchema::outbox();
        db_query("UPDATE `$table` SET `claim`=".db_input($token).', `claimed_until`=NOW() + INTERVAL '.self::CLAIM_SECONDS.' SECOND'
            ." WHERE `sent_at` IS NULL AND ($where) AND (`claimed_until` IS NULL OR `claimed_until` < NOW()) ORDER BY `id` LIMIT ".(int) $limit);
        $rows = array();
        $res = db_query("SELECT `id`, `body`, `attempts` FROM `$table` WHERE `claim`=".db_input($token).' AND `sent_at` IS NULL ORDER BY `id`');
        while ($res && ($row = db_fetch_array($res))) $rows[] = $row;
        return $rows;
    }

    /** Sends in order; stops at the first failure that will pass (the platform is down or busy), so order holds. */
    private function deliver(array $rows, float $timeout): int {
        $sent = 0;
        $table = PlatformBridgeSchema::outbox();
        foreach ($rows as $i => $row) {
            $answer = $this->client->postJson('/tickets/v1/signals', $row['body'], $timeout);
            $id = (int) $row['id'];
            if ($answer->unavailable()) $this->unavailable = true;
            else $this->reached = true;
            if ($answer->ok() || self::hopeless($answer->status)) {
                db_query("UPDATE `$table` SET `sent_at`=NOW(), `status`=".$answer->status.', `attempts`=`attempts`+1, `claim`=NULL, `claimed_until`=NULL, `last_error`='
                    .($answer->ok() ? 'NULL' : db_input(substr($answer->body, 0, 255)))." WHERE `id`=$id");
                if ($answer->ok()) $sent++;
                else self::warn(sprintf('Platform refused signal %d (HTTP %d); dropped: %s', $id, $answer->status, substr($answer->body, 0, 500)));
                continue;
            }
            $attempts = (int) $row['attempts'] + 1;
            db_query("UPDATE `$table` SET `attempts`=$attempts, `status`=".$answer->status.', `last_error`='.db_input(substr($answer->error ?: $answer->body, 0, 255))
                .', `next_attempt_at`=NOW() + INTERVAL '.self::backoff($attempts).' SECOND'
                .", `claim`=NULL, `claimed_until`=NULL WHERE `id`=$id");
            // Give back what this run claimed and did not try: the next run takes it at once.
            $rest = array_map(fn ($r) => (int) $r['id'], array_slice($rows, $i + 1));
            if ($rest) db_query("UPDATE `$table` SET `claim`=NULL, `claimed_until`=NULL WHERE `id` IN (".implode(',', $rest).')');
            break;
        }
        return $sent;
    }

    /**
     * Seconds before the next try after `attempts` failures: the request's own
     * try is followed by the next cron run, then 1, 2, 4 ... minutes, at most
     * an hour, so a platform that is back gets the backlog within a few runs.
     */
    static function backoff(int $attempts): int {
        if ($attempts <= 1) return 0;
        return min(3600, 60 * (2 ** ($attempts - 2)));
    }

    /**
     * A refusal that another try will not change (docs/ticket-bridge.md): a 4xx
     * other than 413 (limit), 408/429 (busy) and 401 (a key fixed later).
     */
    static function hopeless(int $status): bool {
        return $status >= 400 && $status < 500 && !in_array($status, array(401, 408, 413, 429), true);
    }

    static function warn(string $message): void {
        global $ost;
        if ($ost) $ost->logWarning('Platform bridge', $message, false);
    }
}
