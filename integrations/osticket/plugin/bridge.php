<?php
require_once INCLUDE_DIR.'class.plugin.php';
require_once INCLUDE_DIR.'class.signal.php';
require_once __DIR__.'/config.php';
foreach (array('Platform', 'Schema', 'TicketFields', 'Bodies', 'Outbox', 'Breaker', 'Response', 'Forwarder', 'Sync', 'StaffPages', 'WriteBack', 'StaffProxy') as $file) {
    require_once __DIR__."/src/$file.php";
}

/**
 * The osTicket side of the management platform: forwards signals through an
 * outbox, writes the platform's fields back on cron, and proxies staff AJAX
 * with the agent's identity (integrations/osticket/README.md).
 */
class PlatformBridgePlugin extends Plugin {
    var $config_class = 'PlatformBridgeConfig';

    /** One platform per help desk: a second instance would send every signal twice. */
    function isMultiInstance() {
        return false;
    }

    /** Called when the plugin is installed (admin panel or bin/configure.php): tables and ticket fields. */
    function enable() {
        PlatformBridgeSchema::install();
        PlatformTicketFields::install();
        return true;
    }

    function bootstrap() {
        // osTicket drops the side-loaded config after bootstrap: keep this instance's.
        $config = $this->getConfig();
        (new PlatformForwarder($config))->connect();
        (new PlatformStaffProxy($config))->connect();
        (new PlatformStaffPages())->connect();
        Signal::connect('cron', function () use ($config) {
            $client = PlatformClient::fromConfig($config);
            if (!$client) return;
            // Cron may wait longer than an agent's request.
            $timeout = max(5.0, PlatformForwarder::timeout($config));
            $outbox = new PlatformOutbox($client);
            $outbox->sendDue($timeout);
            // Cron's sends tell the breaker too: a platform back up is used in-request again at once.
            PlatformBreaker::fromConfig($config)->record($outbox);
            (new PlatformWriteBack($client))->run($timeout);
        });
    }
}
