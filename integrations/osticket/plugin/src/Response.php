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
        $levels = ob_get_status(true);
        foreach ($levels as $buffer) {
            // Only PHP's own buffers and the staff pages' tags: a handler that transforms the output (gzip) would change the length.
            if (!in_array($buffer['name'] ?? '', array('default output handler', PlatformStaffPages::HANDLER), true)) return;
        }
        // Innermost first: what a buffer holds comes after what the one around it holds, and passes through its handler.
        $page = '';
        foreach (array_reverse($levels) as $buffer) {
            $page = ob_get_clean().$page;
            if ($buffer['name'] === PlatformStaffPages::HANDLER) $page = PlatformStaffPages::inject($page);
        }
        header('Content-Length: '.strlen($page));
        header('Connection: close');
        echo $page;
        flush();
    }
}
