<?php

/**
 * The platform's staff pages inside osTicket's staff panel (spec 2, 4.6,
 * 4.7 rule 5 and 6): the Assistant page, the urgency snapshot page, a CRITICAL
 * alert bell on every staff page and the assistant's panel on the ticket
 * view. The pages are osTicket's own frame with an empty container; their
 * script (assets/staff.js, served from here: nothing from the internet)
 * fills it through the plugin's staff AJAX routes, so no page waits for
 * the platform.
 */
class PlatformStaffPages {
    const VERSION = '1.1.0';
    const ASSETS = array(
        'staff.js' => 'application/javascript; charset=utf-8',
        'staff.css' => 'text/css; charset=utf-8',
    );

    function connect(): void {
        global $ost;
        Signal::connect('ajax.scp', function ($dispatcher) {
            $dispatcher->append(url_get('^/platform-bridge/(staff\.js|staff\.css)$', array($this, 'asset')));
            $dispatcher->append(url_get('^/platform-bridge/(assistant|snapshots)$', array($this, 'page')));
        });
        Signal::connect('object.view', array($this, 'ticketPanel'), 'Ticket');
        // Every staff page: the bell, and the pages in the navigation (osTicket's header prints these).
        if ($ost && str_contains((string) ($_SERVER['SCRIPT_NAME'] ?? ''), '/scp/')) {
            $base = ROOT_PATH.'scp/ajax.php/platform-bridge/';
            $ost->addExtraHeader(sprintf('<link rel="stylesheet" href="%s">', Format::htmlchars($base.'staff.css?v='.self::VERSION)));
            $ost->addExtraHeader(sprintf('<script src="%s" data-scp="%s" defer></script>', Format::htmlchars($base.'staff.js?v='.self::VERSION), Format::htmlchars(ROOT_PATH.'scp/')));
        }
    }

    function asset(string $name): void {
        header('Content-Type: '.self::ASSETS[$name]);
        header('Cache-Control: private, max-age=3600');
        readfile(dirname(__DIR__).'/assets/'.$name);
        exit;
    }

    /** One of the two pages: osTicket's header and footer around the container the script fills. */
    function page(string $which): void {
        global $thisstaff, $ost, $cfg, $nav, $errors, $msg, $warn;
        $nav = new StaffNav($thisstaff);
        $title = $which === 'assistant' ? 'Assistant' : 'Urgency snapshots';
        $ost->setPageTitle("$title - osTicket");
        // These pages follow a phone's width (staff.css); osTicket's own pages keep their fixed frame.
        $ost->addExtraHeader('<meta name="viewport" content="width=device-width, initial-scale=1">');
        require STAFFINC_DIR.'header.inc.php';
        printf('<h2>%s</h2><div class="platform-%s" data-platform-page="%s"><p class="platform-muted">Loading...</p></div>', Format::htmlchars($title), $which, $which);
        require STAFFINC_DIR.'footer.inc.php';
        exit;
    }

    /** The ticket view: the assistant's panel, "this ticket" being the one shown (the script loads it after the page). */
    function ticketPanel($ticket): void {
        printf('<div class="platform-ticket-panel" data-ticket-number="%s" data-ticket-id="%d"></div>', Format::htmlchars((string) $ticket->getNumber()), (int) $ticket->getId());
    }
}
