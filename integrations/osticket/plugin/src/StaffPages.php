<?php

/**
 * The platform's staff pages inside osTicket's staff panel (spec 2, 4.6, 6,
 * 4.7 rule 5): the Assistant page, the urgency snapshot page, a CRITICAL
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

    /** The output handler that adds the tags to staff pages (PlatformResponse knows it: it only adds them). */
    const HANDLER = 'PlatformStaffPages::inject';
    /** Staff scripts that are not pages with a <head> (AJAX, the cron image, downloads). */
    const NOT_PAGES = array('ajax.php', 'autocron.php', 'logout.php', 'logo.php', 'image.php', 'export.php');

    function connect(): void {
        Signal::connect('ajax.scp', function ($dispatcher) {
            $dispatcher->append(url_get('^/platform-bridge/(staff\.js|staff\.css)$', array($this, 'asset')));
            $dispatcher->append(url_get('^/platform-bridge/(assistant|snapshots)$', array($this, 'page')));
        });
        Signal::connect('object.view', array($this, 'ticketPanel'), 'Ticket');
        // Every staff page gets the bell and the navigation. osTicket's $ost (and its extra headers)
        // does not exist yet while plugins start, so the tags go in as the page is written out.
        $script = (string) ($_SERVER['SCRIPT_NAME'] ?? '');
        if (PHP_SAPI !== 'cli' && str_contains($script, '/scp/') && !in_array(basename($script), self::NOT_PAGES, true)) {
            ob_start(self::HANDLER, 65536);
        }
    }

    /** The script and style of the staff pages, files of this plugin. */
    static function tags(): string {
        $base = ROOT_PATH.'scp/ajax.php/platform-bridge/';
        return sprintf('<link rel="stylesheet" href="%s"><script src="%s" data-scp="%s" defer></script>',
            Format::htmlchars($base.'staff.css?v='.self::VERSION), Format::htmlchars($base.'staff.js?v='.self::VERSION), Format::htmlchars(ROOT_PATH.'scp/'));
    }

    /** Output handler: the tags before the page's first </head>; everything else passes as it is (and a discarded buffer is no page). */
    static function inject(string $output, int $phase = PHP_OUTPUT_HANDLER_WRITE): string {
        static $done = false;
        if ($done || ($phase & PHP_OUTPUT_HANDLER_CLEAN) || ($at = stripos($output, '</head>')) === false) return $output;
        $done = true;
        return substr($output, 0, $at).self::tags().substr($output, $at);
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
        $ost->addExtraHeader(self::tags());
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
