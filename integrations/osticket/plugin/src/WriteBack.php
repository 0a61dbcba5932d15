<?php

/**
 * Cron: reads the platform's changes feed from the stored cursor and writes
 * each change's fields into the ticket (docs/ticket-bridge.md, 2 and 3).
 */
class PlatformWriteBack {
    const PAGE = 200;
    /** Pages one cron run reads at most; the rest wait for the next run. */
    const MAX_PAGES = 10;

    function __construct(private PlatformClient $client) {}

    /** Answers how many changes were applied. */
    function run(float $timeout): int {
        $applied = 0;
        for ($page = 0; $page < self::MAX_PAGES; $page++) {
            $cursor = (int) PlatformBridgeSchema::getState('changes_cursor', '0');
            $answer = $this->client->getJson('/tickets/v1/changes?after='.$cursor.'&limit='.self::PAGE, $timeout);
            $data = $answer->ok() ? $answer->json() : null;
            if (!$data || !isset($data['changes'], $data['next_cursor'])) {
                PlatformOutbox::warn(sprintf('Changes feed unavailable (HTTP %d): %s', $answer->status, substr($answer->error ?: $answer->body, 0, 300)));
                break;
            }
            foreach ($data['changes'] as $change) {
                // A ticket the platform knows and osTicket no longer has (deleted) is skipped.
                if (PlatformTicketFields::write((int) $change['ticket_id'], (array) $change['fields'])) $applied++;
            }
            // Stored after the page is written: a crash re-reads the page, and writing the same values again changes nothing.
            PlatformBridgeSchema::setState('changes_cursor', (string) (int) $data['next_cursor']);
            if (count($data['changes']) < self::PAGE) break;
        }
        return $applied;
    }
}
