<?php

/**
 * Turns osTicket's signals into the platform's (docs/ticket-bridge.md, 1).
 * What happens during a request is collected and, at its end, written to
 * the outbox and sent once with a short timeout: the bodies then show the
 * ticket as the request left it, and a ticket touched many times in one
 * request is sent once.
 */
class PlatformForwarder {
    /** Staff columns the platform's staff directory shows (a login's `lastlogin` is not a change). */
    const STAFF_COLUMNS = array('firstname', 'lastname', 'email', 'phone', 'phone_ext', 'mobile', 'dept_id', 'role_id', 'isactive', 'username');

    const DEFAULT_TIMEOUT = 1.0;

    /**
     * Set while PlatformSync reads tickets to send them: osTicket adds a
     * ticket's missing field answers as it reads them, which is no change
     * of the ticket to signal.
     */
    static bool $silenced = false;

    /** [kind, id] in the order they happened, each once. */
    private array $pending = array();
    private bool $flushing = false;

    function __construct(private $config) {}

    function connect(): void {
        Signal::connect('threadentry.created', function ($entry) {
            $thread = $entry->getThread();
            if ($thread && $thread->getObjectType() == 'T') $this->note('entry', (int) $entry->getId());
        });
        Signal::connect('ticket.created', fn ($ticket) => $this->note('created', (int) $ticket->getId()));
        Signal::connect('object.edited', function ($ticket, $data) {
            if (in_array($data['type'] ?? null, array('assigned', 'referred'), true)) $this->note('assigned', (int) $ticket->getId());
        }, 'Ticket');
        Signal::connect('model.updated', function ($ticket, $data) {
            $dirty = $data['dirty'] ?? array();
            if (array_key_exists('status_id', $dirty) || array_key_exists('dept_id', $dirty)) $this->note('updated', (int) $ticket->getId());
        }, 'Ticket');
        $answer = function ($answer, $data) {
            $created = !isset($data['dirty']);
            if ($created ? $answer->get('value') === null : !array_key_exists('value', $data['dirty'])) return;
            $field = $answer->field;
            if (!$field || !array_key_exists((string) $field->get('name'), PlatformTicketFields::SENT)) return;
            $entry = $answer->entry;
            if ($entry && $entry->get('object_type') == 'T' && $entry->get('object_id')) $this->note('updated', (int) $entry->get('object_id'));
        };
        Signal::connect('model.created', $answer, 'DynamicFormEntryAnswer');
        Signal::connect('model.updated', $answer, 'DynamicFormEntryAnswer');
        Signal::connect('model.created', fn ($staff) => $this->note('staff', (int) $staff->getId()), 'Staff');
        Signal::connect('model.updated', function ($staff, $data) {
            if (array_intersect(array_keys($data['dirty'] ?? array()), self::STAFF_COLUMNS)) $this->note('staff', (int) $staff->getId());
        }, 'Staff');
        // A department's manager changed: both agents' department-manager flag may have.
        Signal::connect('model.updated', function ($dept, $data) {
            $dirty = $data['dirty'] ?? array();
            if (!array_key_exists('manager_id', $dirty)) return;
            foreach (array($dirty['manager_id'], $dept->get('manager_id')) as $id) if ((int) $id) $this->note('staff', (int) $id);
        }, 'Dept');
    }

    private function note(string $kind, int $id): void {
        if (!$id || $this->flushing || self::$silenced) return;
        if (!$this->pending) register_shutdown_function(array($this, 'flush'));
        $this->pending["$kind:$id"] = array($kind, $id);
    }

    /**
     * End of the request: write the signals to the outbox, end the answer to
     * the client, then send them, unless the breaker says the platform did
     * not answer lately (cron sends them then).
     */
    function flush(): void {
        $this->flushing = true;
        try {
            $ids = PlatformOutbox::add($this->bodies());
            $this->pending = array();
            $client = PlatformClient::fromConfig($this->config);
            if (!$client || !$ids) return;
            $breaker = PlatformBreaker::fromConfig($this->config);
            if (!$breaker->allows()) return;
            PlatformResponse::finish();
            $outbox = new PlatformOutbox($client);
            $outbox->sendNow($ids, self::timeout($this->config));
            $breaker->record($outbox);
        } catch (Throwable $error) {
            PlatformOutbox::warn('Forwarding failed: '.$error->getMessage());
        } finally {
            $this->flushing = false;
        }
    }

    /** Seconds a request's send may wait (the setting; 1 by default, at most 30). */
    static function timeout($config): float {
        $seconds = (float) $config->get('send_timeout');
        return $seconds > 0 ? min($seconds, 30.0) : self::DEFAULT_TIMEOUT;
    }

    /** The bodies, a new ticket first (its entries and changes ride on ticket.created's body). */
    private function bodies(): array {
        $created = array();
        foreach ($this->pending as list($kind, $id)) if ($kind === 'created') $created[$id] = true;
        $bodies = array();
        $now = PlatformBodies::now();
        foreach ($created as $id => $_) {
            if ($ticket = Ticket::lookup($id)) $bodies[] = array('signal' => 'ticket.created', 'ticket' => PlatformBodies::ticket($ticket, $now));
        }
        foreach ($this->pending as list($kind, $id)) {
            if ($kind === 'entry') {
                $entry = ThreadEntry::lookup($id);
                $ticket = $entry ? $entry->getThread()->getObject() : null;
                if ($ticket instanceof Ticket) $bodies[] = array('signal' => 'threadentry.created', 'ticket' => PlatformBodies::ticket($ticket, $now), 'entry' => PlatformBodies::entry($entry));
            } elseif ($kind === 'assigned' || $kind === 'updated') {
                if (isset($created[$id]) || !($ticket = Ticket::lookup($id))) continue;
                $bodies[] = array('signal' => "ticket.$kind", 'ticket' => PlatformBodies::ticket($ticket, $now));
            } elseif ($kind === 'staff' && ($staff = Staff::lookup($id))) {
                $bodies[] = array('signal' => 'staff.updated', 'staff' => PlatformBodies::staff($staff));
            }
        }
        return $bodies;
    }
}
