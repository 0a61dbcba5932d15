<?php

/**
 * What the platform should know from the start (bin/configure.php, and its
 * `--sync` any time later): every active agent as `staff.updated`, and with
 * `--backfill-days N` the tickets updated in the last N days with their
 * thread entries, marked `backfill` so the platform stores them without
 * queuing an urgency analysis for each (its knowledge index embeds them on
 * its next run). Sent straight to the platform, not through the outbox;
 * the platform dedupes by osTicket ids, so a second run changes nothing.
 */
class PlatformSync {
    /** Tickets per batch: each batch is read, sent and reported before the next (memory stays bounded). */
    const BATCH = 50;
    /** Tries of one signal while the platform is unavailable, before the run stops. */
    const TRIES = 3;

    public int $skipped = 0;

    /** `$progress` receives one line per step (configure.php prints them). */
    function __construct(private PlatformClient $client, private float $timeout, private $progress) {}

    /** Answers how many agents were sent. */
    function staff(): int {
        $sent = 0;
        foreach (Staff::objects()->filter(array('isactive' => 1))->order_by('staff_id') as $staff) {
            if ($this->send(array('signal' => 'staff.updated', 'staff' => PlatformBodies::staff($staff)))) $sent++;
        }
        ($this->progress)("staff: $sent active agents sent");
        return $sent;
    }

    /** Answers how many tickets were sent. */
    function backfill(int $days): int {
        $ids = array();
        $res = db_query('SELECT `ticket_id` FROM `'.TICKET_TABLE.'` WHERE `updated` >= NOW() - INTERVAL '.max(1, $days).' DAY ORDER BY `ticket_id`');
        while ($res && ($row = db_fetch_row($res))) $ids[] = (int) $row[0];
        $total = count($ids);
        $sent = 0;
        $signals = 0;
        PlatformForwarder::$silenced = true;
        try {
            foreach (array_chunk($ids, self::BATCH) as $batch) {
                foreach ($batch as $id) {
                    if (!($ticket = Ticket::lookup($id))) continue;
                    $signals += $this->ticket($ticket);
                    $sent++;
                }
                ($this->progress)("backfill: $sent of $total tickets sent ($signals signals)");
                // osTicket's object cache keeps every ticket read: let the batch go.
                ModelInstanceManager::flushCache();
            }
        } finally {
            PlatformForwarder::$silenced = false;
        }
        return $sent;
    }

    /** One ticket: each thread entry carries the ticket; a ticket without entries goes alone. Answers the signals sent. */
    private function ticket(Ticket $ticket): int {
        // The ticket's own last update, so an older copy never replaces what live signals stored.
        $body = PlatformBodies::ticket($ticket, PlatformBodies::iso($ticket->getUpdateDate()) ?: PlatformBodies::now());
        $entries = ThreadEntry::objects()
            ->filter(array('thread__object_id' => $ticket->getId(), 'thread__object_type' => 'T', 'type__in' => array('M', 'R', 'N')))
            ->order_by('id');
        $count = 0;
        foreach ($entries as $entry) {
            $this->send(array('signal' => 'threadentry.created', 'backfill' => true, 'ticket' => $body, 'entry' => PlatformBodies::entry($entry)));
            $count++;
        }
        if (!$count) {
            $this->send(array('signal' => 'ticket.created', 'backfill' => true, 'ticket' => $body));
            $count++;
        }
        return $count;
    }

    /**
     * Sends one signal: a refusal that will not change is reported and
     * skipped; a platform that stays unavailable stops the run (it can be
     * run again: nothing is sent twice in effect).
     */
    private function send(array $signal): bool {
        $json = json_encode($signal, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE);
        for ($try = 1; ; $try++) {
            $answer = $this->client->postJson('/tickets/v1/signals', $json, $this->timeout);
            if ($answer->ok()) return true;
            if (!$answer->unavailable() || $try >= self::TRIES) break;
            usleep(500000 * $try);
        }
        $what = $signal['signal'].' '.(isset($signal['staff']) ? 'agent '.$signal['staff']['id'] : 'ticket '.$signal['ticket']['number']);
        $reason = sprintf('HTTP %d %s', $answer->status, substr($answer->error ?: $answer->body, 0, 300));
        if ($answer->unavailable()) throw new RuntimeException("the platform did not take $what ($reason)");
        $this->skipped++;
        ($this->progress)("skipped $what: $reason");
        return false;
    }
}
