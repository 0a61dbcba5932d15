<?php

/**
 * Staff AJAX on the ticket host (spec 2, 4.5 and 4.6): `/scp/ajax.php/timetracking/*`
 * and `/scp/ajax.php/ai-assistant/*` go to the platform for the signed-in
 * agent, whose identity is signed with the agent signing secret (header
 * `X-Ticket-Staff: <staff id>:<unix time>:<nonce>:<hex HMAC-SHA256 of
 * "<staff id>\n<unix time>\n<nonce>\n<METHOD>\n<path and query>\n<hex SHA-256 of the body>">`).
 * The time panel's script is the platform's own, served from here.
 */
class PlatformStaffProxy {
    const VERSION = '1.0.0';
    /** The setting "Staff page timeout" when unset: a staff request's whole answer. */
    const DEFAULT_TIMEOUT = 3.0;
    /** Connecting, for every staff request: the platform is near (a refused or lost connection shows at once). */
    const CONNECT_TIMEOUT = 1.0;
    /** The assistant's answer streams for minutes; its first byte comes once the platform has retrieved the context. */
    const CHAT_TIMEOUT = 300.0;
    const CHAT_FIRST_BYTE = 15.0;
    const NOT_ANSWERING = 'The platform is not answering';

    function __construct(private $config) {}

    function connect(): void {
        Signal::connect('ajax.scp', function ($dispatcher) {
            $dispatcher->append(url_get('^/platform-bridge/time-panel\.js$', array($this, 'script')));
            $dispatcher->append(url('^/(timetracking|ai-assistant)/(.*)$', array($this, 'forward')));
            // The alert bell and the snapshot page (PlatformStaffPages); not the notification stream, which would hold a PHP worker.
            $dispatcher->append(url('^/(notifications)(?:/(read))?$', array($this, 'forward')));
            $dispatcher->append(url_get('^/(urgency)/(snapshots)$', array($this, 'forward')));
        });
        Signal::connect('object.view', array($this, 'panel'), 'Ticket');
    }

    /**
     * Signs who is asking and what: the platform checks the HMAC with the same
     * secret, the time (at most 30 s ahead of its clock, 120 s behind) and
     * takes each signature once; the nonce keeps two identical requests in
     * one second apart.
     */
    static function identity(int $staffId, string $method, string $path, string $body, string $secret, ?int $now = null): string {
        $now = $now ?? time();
        $nonce = bin2hex(random_bytes(16));
        $signed = implode("\n", array($staffId, $now, $nonce, strtoupper($method), $path, hash('sha256', $body)));
        return "$staffId:$now:$nonce:".hash_hmac('sha256', $signed, $secret);
    }

    function forward(string $area, string $rest = ''): void {
        global $thisstaff, $ost;
        $method = $_SERVER['REQUEST_METHOD'];
        // osTicket checks CSRF only for form posts; a JSON body must carry the token too.
        if ($method !== 'GET' && !$ost->checkCSRFToken()) self::answer(400, 'Valid CSRF Token Required');
        $client = PlatformClient::fromConfig($this->config);
        if (!$client) self::answer(503, 'The platform bridge is not configured.');
        if ($client->staffSecret() === '') self::answer(503, 'The platform bridge has no agent signing secret: run its bin/configure.php again (see its README, "Upgrading").');
        $breaker = $this->breakerAllowing();
        $query = $_GET;
        unset($query['_method']);
        $path = "/scp/ajax.php/$area".($rest === '' ? '' : "/$rest").($query ? '?'.http_build_query($query) : '');
        $body = file_get_contents('php://input');
        $headers = array('x-ticket-staff: '.self::identity((int) $thisstaff->getId(), $method, $path, $body, $client->staffSecret()));
        if ($body !== '') $headers[] = 'content-type: '.($_SERVER['CONTENT_TYPE'] ?? 'application/json');
        // A long chat is a stream: nothing of ours may hold it back (no PHP or zlib buffer, nor the web server's).
        session_write_close();
        ini_set('zlib.output_compression', '0');
        if (function_exists('apache_setenv')) apache_setenv('no-gzip', '1');
        while (ob_get_level()) ob_end_clean();
        $started = false;
        $status = 0;
        $type = 'application/json';
        $chat = $area === 'ai-assistant' && $rest === 'chat';
        $timeout = self::timeout($this->config);
        $answer = $client->call($method, $client->url($path), $headers, $body === '' ? null : $body,
            $chat ? self::CHAT_TIMEOUT : $timeout,
            function ($line) use (&$status, &$type) {
                if (preg_match('#^HTTP/\S+\s+(\d{3})#', $line, $m)) $status = (int) $m[1];
                elseif (stripos($line, 'content-type:') === 0) $type = trim(substr($line, 13));
            },
            function ($chunk) use (&$started, &$status, &$type) {
                if (!$started) {
                    $started = true;
                    http_response_code($status ?: 502);
                    header('Content-Type: '.$type);
                    header('Cache-Control: no-cache');
                    header('X-Accel-Buffering: no');
                }
                echo $chunk;
                flush();
            }, false, self::CONNECT_TIMEOUT, $chat ? max($timeout, self::CHAT_FIRST_BYTE) : null);
        // A stream that began had its answer, however it ended.
        $breaker->recordAnswer($started ? new PlatformAnswer(200, '') : $answer);
        if (!$started) {
            if ($answer->status === 0) self::answer(504, self::NOT_ANSWERING.' ('.$answer->error.'). Staff pages stop asking it for a while.');
            http_response_code($answer->status);
        }
        exit;
    }

    /** The configured "Staff page timeout" (seconds), within 1 to 30. */
    static function timeout($config): float {
        $seconds = (float) $config->get('staff_timeout');
        return $seconds > 0 ? min(max($seconds, 1.0), 30.0) : self::DEFAULT_TIMEOUT;
    }

    /**
     * The breaker signals use, asked before a staff call: while the platform
     * did not answer lately, the agent hears so at once and the PHP worker is
     * free again, instead of every tab's bell poll waiting out a timeout.
     */
    private function breakerAllowing(): PlatformBreaker {
        $breaker = PlatformBreaker::fromConfig($this->config);
        if (!$breaker->allows()) self::answer(503, sprintf('%s: staff pages ask it again in %d s.', self::NOT_ANSWERING, max(1, $breaker->remaining())));
        return $breaker;
    }

    private static function answer(int $status, string $message): void {
        http_response_code($status);
        header('Content-Type: application/json');
        echo json_encode(array('success' => false, 'data' => $message));
        exit;
    }

    /**
     * The panel's script: the platform's, the one its console uses, fetched
     * here so the browser loads nothing from elsewhere.
     */
    function script(): void {
        $client = PlatformClient::fromConfig($this->config);
        $breaker = PlatformBreaker::fromConfig($this->config);
        $answer = $client && $breaker->allows() ? $client->call('GET', $client->url('/console/assets/time-panel.js'), array(), null, self::timeout($this->config), null, null, false, self::CONNECT_TIMEOUT) : null;
        if ($answer) $breaker->recordAnswer($answer);
        header('Content-Type: application/javascript; charset=utf-8');
        if (!$answer || !$answer->ok()) {
            http_response_code(502);
            header('Cache-Control: no-store');
            echo "/* The platform's time panel could not be loaded. */\n";
            exit;
        }
        header('Cache-Control: private, max-age=3600');
        echo $answer->body;
        exit;
    }

    /**
     * The agent opened a ticket: a ticket linked to a time project gets the
     * panel's script; the script asks the platform whether the agent is
     * connected (spec 2, 4.5 rule 1) so the page never waits for it.
     */
    function panel($ticket): void {
        global $ost;
        $entry = PlatformTicketFields::entry((int) $ticket->getId());
        $project = PlatformTicketFields::value($entry, 'time_project_id');
        if (!ctype_digit((string) $project)) return;
        printf('<script src="%s" data-ticket-id="%d" data-project-id="%d" data-locked="%d" data-csrf="%s" defer></script>',
            Format::htmlchars(ROOT_PATH.'scp/ajax.php/platform-bridge/time-panel.js?v='.self::VERSION),
            (int) $ticket->getId(), (int) $project, PlatformTicketFields::value($entry, 'locked') ? 1 : 0,
            Format::htmlchars($ost->getCSRFToken()));
    }
}
