<?php

/** One answer of the platform: the HTTP status (0 when it could not be reached), the body, and what went wrong. */
class PlatformAnswer {
    function __construct(public int $status, public string $body, public string $error = '') {}

    function ok(): bool { return $this->status >= 200 && $this->status < 300; }

    /** The platform did not answer in time, could not be reached, or is failing or busy: worth not asking again for a while. */
    function unavailable(): bool {
        return $this->status === 0 || $this->status >= 500 || in_array($this->status, array(408, 429), true);
    }

    /** No answer in time or no connection, or a gateway saying the platform behind it is not there: what opens the breaker for staff pages. */
    function notAnswering(): bool {
        return $this->status === 0 || in_array($this->status, array(502, 503, 504), true);
    }

    function json(): ?array {
        $data = json_decode($this->body, true);
        return is_array($data) ? $data : null;
    }
}

/** The platform's HTTP interface: every call has a connect and a total timeout. */
class PlatformClient {
    private string $base;
    private string $restRoot;

    /**
     * `$key` is the platform's ai_security_key (signals and the changes feed);
     * `$staffSecret` signs the agents of staff AJAX (X-Ticket-Staff), set by
     * bin/configure.php from the platform's `pnpm cli ticket-bridge:secret`.
     */
    function __construct(string $url, string $restRoot, private string $key, private string $staffSecret = '') {
        $this->base = rtrim($url, '/');
        $this->restRoot = rtrim($restRoot, '/');
    }

    static function fromConfig($config): ?PlatformClient {
        $url = trim((string) $config->get('platform_url'));
        $key = (string) $config->get('security_key');
        if ($url === '' || $key === '') return null;
        return new PlatformClient($url, trim((string) $config->get('rest_root')), $key, (string) $config->get('staff_secret'));
    }

    function staffSecret(): string { return $this->staffSecret; }

    function restUrl(string $path): string { return $this->base.$this->restRoot.$path; }

    function url(string $path): string { return $this->base.$path; }

    function postJson(string $path, string $json, float $timeout): PlatformAnswer {
        return $this->call('POST', $this->restUrl($path), array('content-type: application/json'), $json, $timeout);
    }

    function getJson(string $path, float $timeout): PlatformAnswer {
        return $this->call('GET', $this->restUrl($path), array(), null, $timeout);
    }

    /**
     * Any call; `$onChunk` receives the body as it arrives instead of it being
     * kept (the chat stream). Staff calls carry a signed identity instead of
     * the key (`$withKey` false): the key itself never leaves for them.
     * `$connect` bounds the connection (2 s at most by default); `$firstByte`
     * the wait for the answer's status line, for a stream whose `$timeout` is
     * long: a platform that accepts connections but is hung (stopped, stuck)
     * is given up on after it, not after the whole stream's time.
     */
    function call(string $method, string $url, array $headers, ?string $body, float $timeout, ?callable $onHeaders = null, ?callable $onChunk = null, bool $withKey = true, ?float $connect = null, ?float $firstByte = null): PlatformAnswer {
        $curl = curl_init($url);
        if ($withKey) $headers[] = 'ai-security-key: '.$this->key;
        $headers[] = 'accept: application/json, text/event-stream';
        curl_setopt_array($curl, array(
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $headers,
            CURLOPT_RETURNTRANSFER => $onChunk === null,
            CURLOPT_CONNECTTIMEOUT_MS => (int) (min($connect ?? 2.0, $timeout) * 1000),
            CURLOPT_TIMEOUT_MS => (int) ($timeout * 1000),
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_NOSIGNAL => true,
        ));
        if ($body !== null) curl_setopt($curl, CURLOPT_POSTFIELDS, $body);
        if ($onHeaders !== null) {
            curl_setopt($curl, CURLOPT_HEADERFUNCTION, function ($c, $line) use ($onHeaders) {
                $onHeaders($line);
                return strlen($line);
            });
        }
        if ($onChunk !== null) {
            curl_setopt($curl, CURLOPT_WRITEFUNCTION, function ($c, $chunk) use ($onChunk) {
                $onChunk($chunk);
                return strlen($chunk);
            });
        }
        $waited = false;
        if ($firstByte !== null && $firstByte < $timeout) {
            $started = microtime(true);
            curl_setopt($curl, CURLOPT_NOPROGRESS, false);
            // libcurl calls this at least once a second, also while nothing arrives; non-zero aborts.
            curl_setopt($curl, CURLOPT_XFERINFOFUNCTION, function ($c) use ($started, $firstByte, &$waited) {
                $waited = curl_getinfo($c, CURLINFO_RESPONSE_CODE) === 0 && microtime(true) - $started > $firstByte;
                return $waited ? 1 : 0;
            });
        }
        $result = curl_exec($curl);
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        $error = $result === false ? ($waited ? sprintf('no answer within %g s', $firstByte) : curl_error($curl)) : '';
        curl_close($curl);
        return new PlatformAnswer($result === false ? 0 : $status, is_string($result) ? $result : '', $error);
    }
}
