<?php
/*
 * Installs, enables and configures the platform bridge in an osTicket 1.18:
 *
 *   php integrations/osticket/bin/configure.php OSTICKET_ROOT --url PLATFORM_URL --key SECURITY_KEY
 *       (--platform-cli 'COMMAND' | --staff-secret-stdin) [--rest-root /x] [--timeout 1] [--pause 60]
 *       [--staff-timeout 3] [--backfill-days N]
 *   php integrations/osticket/bin/configure.php OSTICKET_ROOT --sync [--backfill-days N]
 *
 * Copies the plugin to OSTICKET_ROOT/include/plugins/platform-bridge, installs
 * it (its tables and ticket fields), enables it with one enabled instance and
 * writes the settings. The agent signing secret comes from the platform's
 * `pnpm cli ticket-bridge:secret`, which makes a new one each time: run as
 * `COMMAND ticket-bridge:secret` (e.g. --platform-cli 'pnpm --dir /srv/platform cli'),
 * or its output piped in with --staff-secret-stdin. Run it again to update the
 * files or the settings; each run replaces the signing secret on both sides.
 *
 * Every run then sends every active agent to the platform's staff directory,
 * and with --backfill-days N the tickets updated in the last N days with
 * their thread entries. `--sync` does only that, with the stored settings.
 */
if (PHP_SAPI !== 'cli') exit("Run from the command line.\n");

function fail(string $message): void {
    fwrite(STDERR, "configure.php: $message\n");
    exit(1);
}

/** The secret in what `pnpm cli ticket-bridge:secret` printed (its JSON line, among whatever pnpm adds), or the secret alone. */
function secretIn(string $output): ?string {
    foreach (array_reverse(preg_split('/\r?\n/', trim($output))) as $line) {
        $data = json_decode($line, true);
        $secret = is_array($data) ? ($data['ticket_bridge_secret'] ?? null) : $line;
        if (is_string($secret) && preg_match('/^[A-Za-z0-9_-]{32,255}$/', $secret)) return $secret;
    }
    return null;
}

/** Runs the platform's CLI (`COMMAND ticket-bridge:secret`, a shell command line) for a new signing secret; at most two minutes. */
function newSecretFrom(string $command): string {
    $process = proc_open("$command ticket-bridge:secret", array(0 => array('file', '/dev/null', 'r'), 1 => array('pipe', 'w'), 2 => array('pipe', 'w')), $pipes);
    if (!is_resource($process)) fail("cannot run: $command");
    $output = array(1 => '', 2 => '');
    $deadline = microtime(true) + 120;
    foreach ($pipes as $pipe) stream_set_blocking($pipe, false);
    while (($open = array_filter($pipes, fn ($pipe) => !feof($pipe))) && microtime(true) < $deadline) {
        $read = $open;
        $none = null;
        if (stream_select($read, $none, $none, 1) === false) break;
        foreach ($read as $pipe) $output[array_search($pipe, $pipes, true)] .= (string) fread($pipe, 8192);
    }
    if (microtime(true) >= $deadline) proc_terminate($process);
    foreach ($pipes as $pipe) fclose($pipe);
    $status = proc_close($process);
    $secret = $status === 0 ? secretIn($output[1]) : null;
    if ($secret === null) fail("\"$command ticket-bridge:secret\" gave no signing secret (exit $status): ".trim($output[2] ?: $output[1]));
    return $secret;
}

/** The staff directory and, when asked, the recent tickets (PlatformSync); answers the exit status. */
function syncPlatform(?PlatformClient $client, ?string $backfillDays): int {
    if (!$client) fail('the plugin has no platform URL or security key: run configure.php with --url and --key');
    $sync = new PlatformSync($client, 10.0, function (string $line): void {
        echo "$line\n";
    });
    try {
        $sync->staff();
        if ($backfillDays !== null) $sync->backfill((int) $backfillDays);
    } catch (RuntimeException $error) {
        fwrite(STDERR, "configure.php: {$error->getMessage()}; run configure.php OSTICKET_ROOT --sync".($backfillDays !== null ? " --backfill-days $backfillDays" : '')." again when the platform answers\n");
        return 1;
    }
    return 0;
}

$args = array_slice($argv, 1);
$root = null;
$options = array('url' => null, 'key' => null, 'rest-root' => '', 'timeout' => '1', 'pause' => '60', 'staff-timeout' => '3', 'platform-cli' => null, 'backfill-days' => null);
$flags = array('staff-secret-stdin' => false, 'sync' => false);
for ($i = 0; $i < count($args); $i++) {
    if (str_starts_with($args[$i], '--')) {
        $name = substr($args[$i], 2);
        if (array_key_exists($name, $flags)) {
            $flags[$name] = true;
            continue;
        }
        if (!array_key_exists($name, $options) || !isset($args[$i + 1])) fail("unknown option or missing value: {$args[$i]}");
        $options[$name] = $args[++$i];
    } elseif ($root === null) {
        $root = $args[$i];
    } else {
        fail("unexpected argument: {$args[$i]}");
    }
}
$usage = 'usage: configure.php OSTICKET_ROOT --url PLATFORM_URL --key SECURITY_KEY (--platform-cli COMMAND | --staff-secret-stdin) [--rest-root PATH] [--timeout SECONDS] [--pause SECONDS] [--staff-timeout SECONDS] [--backfill-days N]'
    ."\n   or: configure.php OSTICKET_ROOT --sync [--backfill-days N]";
if ($options['backfill-days'] !== null && !preg_match('/^[1-9]\d{0,4}$/', $options['backfill-days'])) fail('--backfill-days must be a whole number of days (1 or more)');
if ($flags['sync']) {
    if (!$root || $options['url'] || $options['key'] || $options['platform-cli'] !== null || $flags['staff-secret-stdin']) fail($usage);
    $root = realpath($root);
    if (!$root || !is_file("$root/main.inc.php") || !is_file("$root/include/ost-config.php")) fail('OSTICKET_ROOT must be an installed osTicket (main.inc.php and include/ost-config.php)');
    chdir($root);
    require "$root/main.inc.php";
    require_once INCLUDE_DIR.'class.plugin.php';
    $plugin = Plugin::objects()->filter(array('install_path' => 'plugins/platform-bridge'))->first();
    $instance = $plugin ? $plugin->getInstances()->first() : null;
    if (!$instance) fail('the platform bridge is not installed here: run configure.php with --url and --key first');
    $plugin->getImpl();
    exit(syncPlatform(PlatformClient::fromConfig($instance->getConfig()), $options['backfill-days']));
}
if (!$root || !$options['url'] || !$options['key'] || ($options['platform-cli'] === null) === !$flags['staff-secret-stdin']) fail($usage);
foreach (array('timeout', 'pause', 'staff-timeout') as $name) {
    if (!is_numeric($options[$name]) || (float) $options[$name] <= 0) fail("--$name must be a number of seconds above 0");
}
if (!preg_match('#^https?://[^/\s]+(/[^\s]*)?$#', $options['url'])) fail("--url must be an http(s) URL: {$options['url']}");
if (strlen($options['key']) < 32) fail('--key must be the platform\'s ai_security_key, at least 32 characters');
// Read now: the pipe's CLI has already replaced the platform's secret.
$piped = $flags['staff-secret-stdin'] ? secretIn((string) stream_get_contents(STDIN)) : null;
if ($flags['staff-secret-stdin'] && $piped === null) fail('--staff-secret-stdin: no signing secret on standard input (pipe in the output of pnpm cli ticket-bridge:secret)');
$root = realpath($root);
if (!$root || !is_file("$root/main.inc.php") || !is_file("$root/include/ost-config.php")) fail('OSTICKET_ROOT must be an installed osTicket (main.inc.php and include/ost-config.php)');

// The plugin's files, copied fresh (a previous copy is replaced).
$source = dirname(__DIR__).'/plugin';
$target = "$root/include/plugins/platform-bridge";
$copy = function (string $from, string $to) use (&$copy): void {
    if (!is_dir($to) && !mkdir($to, 0755, true)) fail("cannot create $to");
    foreach (scandir($from) as $name) {
        if ($name === '.' || $name === '..') continue;
        if (is_dir("$from/$name")) $copy("$from/$name", "$to/$name");
        elseif (!copy("$from/$name", "$to/$name")) fail("cannot copy $from/$name");
    }
};
$copy($source, $target);

// osTicket's own start-up, as its cron does (a command-line run: no session, no agent).
chdir($root);
require "$root/main.inc.php";
require_once INCLUDE_DIR.'class.plugin.php';

$path = 'plugins/platform-bridge';
$plugin = Plugin::objects()->filter(array('install_path' => $path))->first();
if (!$plugin) {
    $manager = new PluginManager();
    if (!($plugin = $manager->install($path))) fail('osTicket refused to install the plugin (is it 1.18?)');
    $plugin = Plugin::lookup($plugin->getId());
} else {
    // Already installed: make sure tables and fields exist (a newer version may add some).
    $plugin->getImpl()->enable();
}
$plugin->isactive = 1;
$plugin->save();
// Loads the plugin's classes (the sync below uses them).
$plugin->getImpl();

$instance = $plugin->getInstances()->first();
if (!$instance) {
    $instance = PluginInstance::create(array('name' => 'Platform', 'plugin_id' => $plugin->getId(), 'flags' => PluginInstance::FLAG_ENABLED));
    if (!$instance->save()) fail('cannot create the plugin instance');
}
$instance->setStatus(true);
$instance->save();

// Written field by field through each field's own encoding (the key and the signing secret are stored encrypted), not through the form.
$instance = PluginInstance::lookup($instance->getId());
$config = $instance->getConfig();
$fields = $config->getOptions();
$values = array(
    'platform_url' => rtrim($options['url'], '/'),
    'rest_root' => rtrim($options['rest-root'], '/'),
    'security_key' => $options['key'],
    // Made here, just before it is stored: the platform refuses the previous secret from now on.
    'staff_secret' => $piped ?? newSecretFrom($options['platform-cli']),
    'send_timeout' => $options['timeout'],
    'breaker_seconds' => $options['pause'],
    'staff_timeout' => $options['staff-timeout'],
);
foreach ($values as $name => $value) {
    // set() answers the value itself, so an empty one cannot tell success: read every value back instead.
    $config->set($name, $fields[$name]->to_database($value));
}
$saved = new PlatformBridgeConfig($instance->getNamespace());
foreach ($values as $name => $value) {
    if ((string) $saved->get($name) !== (string) $value) fail("the setting $name did not save");
}

echo "Platform bridge installed in $target, enabled, sending to {$values['platform_url']}\n";
exit(syncPlatform(PlatformClient::fromConfig($saved), $options['backfill-days']));
