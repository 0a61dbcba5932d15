<?php
/*
 * Test fixture (pnpm test:osticket): an osTicket as it was before the
 * plugin came, written with osTicket's own classes: agents (a project
 * manager, a department manager, an inactive one) and COUNT tickets with a
 * client message each and, on every tenth, an agent's internal note.
 *
 *   php seed-history.php OSTICKET_ROOT COUNT
 */
chdir($argv[1]);
require $argv[1].'/main.inc.php';

$now = 'NOW()';
db_query("INSERT INTO ".TABLE_PREFIX."role (flags, name, permissions, notes, created, updated) VALUES (1, 'Project Manager', '{}', '', $now, $now)");
$pmRole = db_insert_id();
$dept = (int) db_result(db_query('SELECT MIN(id) FROM '.TABLE_PREFIX.'department'));
$agents = array(
    // username, first, last, email, role, active
    array('pia', 'Pia', 'Planner', 'pia@desk.example', $pmRole, 1),
    array('max', 'Max', 'Manager', 'max@desk.example', 1, 1),
    array('old', 'Otto', 'Left', 'otto@desk.example', 1, 0),
);
$ids = array();
foreach ($agents as list($username, $first, $last, $email, $role, $active)) {
    db_query('INSERT INTO '.STAFF_TABLE." (dept_id, role_id, username, firstname, lastname, email, phone, mobile, signature, isactive, created, updated)
        VALUES ($dept, $role, ".db_input($username).', '.db_input($first).', '.db_input($last).', '.db_input($email).", '+1 555 0100', '', '', $active, $now, $now)");
    $ids[$username] = db_insert_id();
}
db_query('UPDATE '.TABLE_PREFIX."department SET manager_id = {$ids['max']} WHERE id = $dept");

$count = (int) $argv[2];
$numbers = array();
for ($i = 1; $i <= $count; $i++) {
    $errors = array();
    $ticket = Ticket::create(array(
        'name' => "Client $i",
        'email' => "client$i@history.example",
        'subject' => "Old problem $i",
        'message' => new TextThreadEntryBody("The old problem number $i, reported before the plugin."),
        'source' => 'API',
    ), $errors, 'API', false, false);
    if (!$ticket) {
        fwrite(STDERR, "ticket $i: ".json_encode($errors)."\n");
        exit(1);
    }
    if ($i % 10 === 0) {
        $ticket->getThread()->addNote(array('note' => "Checked old problem $i.", 'title' => 'Note', 'staffId' => $ids['pia'], 'poster' => 'Pia Planner'));
    }
    $numbers[] = $ticket->getNumber();
}
echo json_encode(array('agents' => $ids, 'tickets' => $numbers)), "\n";
