<?php

/** The signal bodies of design 10.1 (docs/ticket-bridge.md), built from osTicket's objects. */
class PlatformBodies {
    /** An osTicket database time as ISO-8601 UTC (osTicket stores times in the database's zone). */
    static function iso($value): ?string {
        if (!$value) return null;
        static $zone = null;
        if ($zone === null) {
            try {
                $zone = new DateTimeZone(db_timezone() ?: date_default_timezone_get());
            } catch (Exception $e) {
                $zone = new DateTimeZone(date_default_timezone_get());
            }
        }
        try {
            $time = new DateTime((string) $value, $zone);
        } catch (Exception $e) {
            return null;
        }
        return $time->setTimezone(new DateTimeZone('UTC'))->format('Y-m-d\TH:i:s\Z');
    }

    static function now(): string {
        return gmdate('Y-m-d\TH:i:s\Z');
    }

    static function ticket(Ticket $ticket, string $updated): array {
        $owner = $ticket->getOwner();
        $org = $owner ? $owner->getOrganization() : null;
        $dept = $ticket->getDept();
        $status = $ticket->getStatus();
        return array(
            'id' => (int) $ticket->getId(),
            'number' => (string) $ticket->getNumber(),
            'subject' => (string) $ticket->getSubject(),
            'status' => $status ? (string) $status->getState() : 'open',
            'organisation' => $org ? array('id' => (int) $org->getId(), 'name' => (string) $org->getName()) : null,
            'user' => $owner ? array('name' => (string) $owner->getName(), 'email' => (string) $owner->getEmail()) : null,
            'is_vip' => self::orgFlag($org, 'is_vip'),
            'customer_type' => self::orgText($org, 'customer_type'),
            'department' => $dept ? array(
                'id' => (int) $dept->getId(),
                'name' => (string) $dept->getName(),
                'manager_staff_id' => $dept->getManagerId() ? (int) $dept->getManagerId() : null,
            ) : null,
            'assigned_staff_id' => $ticket->getStaffId() ? (int) $ticket->getStaffId() : null,
            'created' => self::iso($ticket->getCreateDate()),
            'updated' => $updated,
            'fields' => PlatformTicketFields::sent((int) $ticket->getId()),
        );
    }

    static function entry(ThreadEntry $entry): array {
        $staffId = (int) $entry->getStaffId();
        return array(
            'id' => (int) $entry->getId(),
            'type' => (string) $entry->getType(),
            'poster_name' => (string) ($entry->getPoster() ?: ($staffId ? 'Staff' : 'User')),
            'poster_type' => $staffId ? 'Staff' : 'User',
            'staff_id' => $staffId ?: null,
            'is_internal' => $entry->getType() === 'N',
            // As stored; an entry whose body lives in an inline attachment gets it from there.
            'body' => (string) ($entry->get('body') ?? $entry->getBody()),
            'format' => $entry->get('format') === 'html' ? 'html' : 'text',
            'created' => self::iso($entry->getCreateDate()) ?: self::now(),
        );
    }

    static function staff(Staff $staff): array {
        $id = (int) $staff->getId();
        $role = $staff->getRole();
        return array(
            'id' => $id,
            'name' => (string) $staff->getName() ?: (string) $staff->getUserName(),
            'email' => (string) $staff->getEmail() ?: null,
            'phone' => substr(trim((string) ($staff->get('phone') ?: $staff->get('mobile'))), 0, 32) ?: null,
            'department_id' => $staff->getDeptId() ? (int) $staff->getDeptId() : null,
            // osTicket has no project-manager flag: an agent whose primary role is named "Project Manager" is one.
            'is_project_manager' => $role && stripos((string) $role->getName(), 'project manager') !== false,
            'is_department_manager' => Dept::objects()->filter(array('manager_id' => $id))->count() > 0,
        );
    }

    /** An organisation's custom field by variable name (osTicket has no VIP or customer type of its own). */
    private static function orgAnswer($org, string $name) {
        if (!$org) return null;
        foreach ($org->getDynamicData() as $entry) {
            if ($answer = $entry->getAnswer($name)) return $answer->getValue();
        }
        return null;
    }

    private static function orgFlag($org, string $name): bool {
        return (bool) self::orgAnswer($org, $name);
    }

    private static function orgText($org, string $name): ?string {
        $value = self::orgAnswer($org, $name);
        if (is_array($value)) $value = implode(', ', $value);
        return $value === null || $value === '' ? null : substr((string) $value, 0, 64);
    }
}
