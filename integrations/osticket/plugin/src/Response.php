<?php

/**
 * Ends the HTTP answer before the request's signals are sent, so neither an
 * agent nor an API client waits for the platform. PHP-FPM has
 * fastcgi_finish_request(); elsewhere (mod_php, `php -S`) the answer is
 * complete for the client once it has all the bytes its Content-Length
 * names, so the buffered page is sent whole with its length, and the script
 * goes on sending after it.
 */
class PlatformResponse {
    static function finish(): void {
        ignore_user_abort(true);
        if (function_exists('fastcgi_finish_request')) {
            fastcgi_finish_request();
            return;
        }
        // A compressed answer's length is not known here; it is then sent at the end, as before.
        if (headers_sent() || ini_get('zlib.output_compression')) return;
        foreach (ob_get_status(true) as $buffer) {
            // Only PHP's own buffers: a handler that transforms the output (gzip) would change the length.
            if (($buffer['name'] ?? '') !== 'default output handler') return;
        }
        $page = '';
        while (ob_get_level()) $page = ob_get_clean().$page;
        header('Content-Length: '.strlen($page));
        header('Connection: close');
        echo $page;
        flush();
    }
}
