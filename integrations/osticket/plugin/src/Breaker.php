<?php

/**
 * Keeps agents' and the API's requests from waiting on a platform that does
 * not answer: after a send times out or fails, requests stop sending for a
 * while (the setting "Pause after a failure", 60 s by default) and leave
 * their signals to cron. When the pause is over, one request tries again
 * (half-open): it is taken atomically, so a burst of requests sends one try,
 * not one each. A success anywhere, cron's included, closes it again.
 * Staff pages' calls to the platform (PlatformStaffProxy) use it too: an
 * agent's tab that polls the bell must not hold a PHP worker on a hung platform.
 */
class PlatformBreaker {
    const STATE = 'breaker_open_until';
    const DEFAULT_SECONDS = 60;

    function __construct(private int $seconds) {}

    static function fromConfig($config): PlatformBreaker {
        $seconds = (int) $config->get('breaker_seconds');
        return new PlatformBreaker($seconds > 0 ? min($seconds, 3600) : self::DEFAULT_SECONDS);
    }

    /** Whether this request may send now: closed, or this request took the one try after the pause. */
    function allows(): bool {
        $until = PlatformBridgeSchema::getState(self::STATE, '0');
        if ($until === '0') return true;
        $now = time();
        if ($now < (int) $until) return false;
        // Half-open: whoever moves the time on makes the try; the others find it open again.
        return PlatformBridgeSchema::swapState(self::STATE, $until, (string) ($now + $this->seconds));
    }

    /** What the last sends showed: the platform unavailable opens it, an answer from it closes it. */
    function record(PlatformOutbox $outbox): void {
        $this->saw($outbox->unavailable, $outbox->reached);
    }

    /** A staff page's call (PlatformStaffProxy): no answer opens it, any answer closes it. */
    function recordAnswer(PlatformAnswer $answer): void {
        $this->saw($answer->notAnswering(), !$answer->notAnswering());
    }

    /** Seconds until the next try, for telling an agent when to look again. */
    function remaining(): int {
        return max(0, (int) PlatformBridgeSchema::getState(self::STATE, '0') - time());
    }

    private function saw(bool $unavailable, bool $reached): void {
        if ($unavailable) {
            PlatformBridgeSchema::setState(self::STATE, (string) (time() + $this->seconds));
        } elseif ($reached && PlatformBridgeSchema::getState(self::STATE, '0') !== '0') {
            PlatformBridgeSchema::setState(self::STATE, '0');
        }
    }
}
