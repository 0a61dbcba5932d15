<?php

/**
 * The ticket's custom fields on osTicket's "Ticket Details" form (type T):
 * the eight the platform writes back (labels from spec 2, 2.4) and the three
 * staff set that the forwarder sends (docs/ticket-bridge.md, section 3).
 */
class PlatformTicketFields {
    /** Feed key => [variable, label, osTicket field type, configuration]. */
    const WRITTEN = array(
        'ai-urgency' => array('ai_urgency', 'AI urgency (LOW / MEDIUM / HIGH / CRITICAL)', 'text', array('size' => 16, 'length' => 16)),
        'ai-urgency-percentage' => array('ai_urgency_percentage', 'AI urgency percentage (0-100)', 'text', array('size' => 5, 'length' => 3)),
        'ai-estimated-hours' => array('ai_estimated_hours', 'AI estimated hours', 'text', array('size' => 8, 'length' => 16)),
        'ticket-summary' => array('ticket_summary', 'Ticket summary (HTML)', 'memo', array('html' => true, 'rows' => 6, 'cols' => 60, 'length' => 0)),
        'ai-timeline' => array('ai_timeline', 'AI timeline (HTML)', 'memo', array('html' => true, 'rows' => 6, 'cols' => 60, 'length' => 0)),
        'ai-suggested-title' => array('ai_suggested_title', 'AI suggested title', 'text', array('size' => 60, 'length' => 255)),
        'hours-used' => array('hours_used', 'Hours used', 'text', array('size' => 8, 'length' => 16)),
        'locked' => array('locked', 'Locked (over budget)', 'bool', array()),
    );

    /** Staff set these; the forwarder sends them in `ticket.fields`. */
    const SENT = array(
        'time_project_id' => array('Time project ID', 'text', array('size' => 12, 'length' => 20, 'validator' => 'number')),
        'budget_hours' => array('Budget hours', 'text', array('size' => 8, 'length' => 12, 'validator' => 'number')),
        'quoted_hours' => array('Quoted hours', 'text', array('size' => 8, 'length' => 12, 'validator' => 'number')),
    );

    static function form(): ?DynamicForm {
        return TicketForm::objects()->one();
    }

    /** Adds the fields the form lacks (osTicket then rebuilds ost_ticket__cdata); a field an admin renamed or moved is left alone. */
    static function install(): void {
        if (!($form = self::form())) return;
        $sort = 100;
        foreach (self::SENT as $name => list($label, $type, $configuration)) {
            self::addField($form, $name, $label, $type, $configuration, $sort++, DynamicFormField::FLAG_AGENT_VIEW | DynamicFormField::FLAG_AGENT_EDIT);
        }
        // Written by the platform: agents see them, nobody edits them (the next change would overwrite it).
        foreach (self::WRITTEN as list($name, $label, $type, $configuration)) {
            self::addField($form, $name, $label, $type, $configuration, $sort++, DynamicFormField::FLAG_AGENT_VIEW);
        }
        // Each new field rebuilt ost_ticket__cdata from a cached copy of the form: rebuild it once from the stored one.
        ModelInstanceManager::flushCache();
        TicketForm::dropDynamicDataView(true);
    }

    private static function addField(DynamicForm $form, string $name, string $label, string $type, array $configuration, int $sort, int $flags): void {
        if (DynamicFormField::objects()->filter(array('form_id' => $form->getId(), 'name' => $name))->count()) return;
        $field = DynamicFormField::create(array(
            'form_id' => $form->getId(),
            'type' => $type,
            'label' => $label,
            'name' => $name,
            'sort' => $sort,
            'flags' => DynamicFormField::FLAG_ENABLED | $flags,
            'configuration' => $configuration,
        ));
        $field->save();
    }

    /** The ticket's "Ticket Details" entry, with an answer for every field (older tickets lack the new ones). */
    static function entry(int $ticketId): ?DynamicFormEntry {
        foreach (DynamicFormEntry::forTicket($ticketId, true) as $entry) {
            if ($entry->form && $entry->form->get('type') == 'T') {
                $entry->addMissingFields();
                return $entry;
            }
        }
        return null;
    }

    /** The raw stored value of one field, null when empty. */
    static function value(?DynamicFormEntry $entry, string $name): ?string {
        $answer = $entry ? $entry->getAnswer($name) : null;
        $value = $answer ? $answer->get('value') : null;
        return $value === null || trim((string) $value) === '' ? null : trim((string) $value);
    }

    /** The three staff-set fields as the signal body carries them (numbers or null). */
    static function sent(int $ticketId): array {
        $entry = self::entry($ticketId);
        $project = self::value($entry, 'time_project_id');
        $fields = array('time_project_id' => ctype_digit((string) $project) && (int) $project > 0 ? (int) $project : null);
        foreach (array('budget_hours', 'quoted_hours') as $name) {
            $value = self::value($entry, $name);
            $fields[$name] = is_numeric($value) && (float) $value >= 0 ? (float) $value : null;
        }
        return $fields;
    }

    /** Writes one change of the feed: its eight fields as they are after it. */
    static function write(int $ticketId, array $fields): bool {
        if (!($entry = self::entry($ticketId))) return false;
        foreach (self::WRITTEN as $key => list($name, , $type)) {
            if (!array_key_exists($key, $fields) || !($answer = $entry->getAnswer($name))) continue;
            $value = $fields[$key];
            if ($type === 'bool') $stored = $value ? '1' : '0';
            elseif ($value === null) $stored = null;
            else $stored = is_float($value) ? rtrim(rtrim(number_format($value, 2, '.', ''), '0'), '.') : (string) $value;
            if ($answer->get('value') === $stored) continue;
            $answer->setValue($stored);
            $answer->save();
        }
        return true;
    }
}
