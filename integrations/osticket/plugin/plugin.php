<?php
// osTicket reads this file to list the plugin (Admin Panel > Manage > Plugins).
return array(
    'id' => 'agency:platform-bridge',
    'version' => '1.0.0',
    'ost_version' => '1.18',
    'name' => 'Platform bridge',
    'author' => 'Agency',
    'description' => 'Forwards tickets, thread entries and staff to the management platform, writes its AI and time fields back, and serves the time panel.',
    'plugin' => 'bridge.php:PlatformBridgePlugin',
);
