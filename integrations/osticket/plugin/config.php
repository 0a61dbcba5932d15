<?php
require_once INCLUDE_DIR.'class.plugin.php';
require_once INCLUDE_DIR.'class.forms.php';

/** What an administrator sets (Admin Panel > Manage > Plugins > Platform bridge), or bin/configure.php. */
class PlatformBridgeConfig extends PluginConfig {
    function getOptions() {
        return array(
            'platform_url' => new TextboxField(array(
                'label' => 'Platform URL',
                'hint' => 'Where the platform answers, e.g. https://platform.example (no trailing slash)',
                'required' => true,
                'configuration' => array('size' => 60, 'length' => 255),
            )),
            'rest_root' => new TextboxField(array(
                'label' => 'REST root',
                'hint' => 'The platform\'s REST_ROOT: empty unless it was changed there',
                'required' => false,
                'configuration' => array('size' => 30, 'length' => 100),
            )),
            // Stored encrypted with osTicket's SECRET_SALT, like every password field.
            'security_key' => new PasswordField(array(
                'label' => 'Security key',
                'hint' => 'The platform\'s ai_security_key option',
                'required' => true,
                'configuration' => array('size' => 60, 'length' => 255, 'key' => 'platform-bridge'),
            )),
            // Never the security key: a platform user who may change options can change that one.
            'staff_secret' => new PasswordField(array(
                'label' => 'Agent signing secret',
                'hint' => 'Signs the agent on staff AJAX (X-Ticket-Staff). bin/configure.php sets it from the platform\'s pnpm cli ticket-bridge:secret',
                'required' => true,
                'configuration' => array('size' => 60, 'length' => 255, 'key' => 'platform-bridge'),
            )),
            'send_timeout' => new TextboxField(array(
                'label' => 'Send timeout (seconds)',
                'hint' => 'How long an agent\'s or the API\'s request may wait for the platform before the signal is left to cron',
                'default' => '1',
                'configuration' => array('size' => 5, 'length' => 5, 'validator' => 'number'),
            )),
            'staff_timeout' => new TextboxField(array(
                'label' => 'Staff page timeout (seconds)',
                'hint' => 'How long the alert bell, the snapshots, the time panel and the assistant wait for the platform (1 to 30; the assistant\'s answer may then stream for minutes). When it does not answer, staff pages stop asking for the pause below',
                'default' => '3',
                'configuration' => array('size' => 5, 'length' => 5, 'validator' => 'number'),
            )),
            'breaker_seconds' => new TextboxField(array(
                'label' => 'Pause after a failure (seconds)',
                'hint' => 'After a send times out or fails, requests leave their signals to cron for this long; then one request tries again',
                'default' => '60',
                'configuration' => array('size' => 5, 'length' => 5, 'validator' => 'number'),
            )),
        );
    }
}
