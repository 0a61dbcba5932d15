import { FakeServer, type FakeAnswer, type FakeRequest } from "./fake-server.ts";

export interface FakeWordPressPlugin {
  plugin: string;
  name: string;
  version: string;
  status: "active" | "inactive" | "network-active";
  /** What a site exposing the update_plugins transient adds (see docs/decisions.md); absent on a plain WordPress. */
  update?: { new_version: string } | false;
}

/**
 * One WordPress site's REST API on 127.0.0.1: the index at `/wp-json/`
 * (name, description, namespaces) and `GET /wp-json/wp/v2/plugins`, which,
 * like core, wants a user with an application password over HTTP Basic and
 * answers WordPress's own 401 bodies (`rest_not_logged_in` without
 * credentials, `incorrect_password` with wrong ones).
 */
export class FakeWordPress extends FakeServer {
  name = "Fake Shop";
  description = "Just another WordPress site";
  username = "dashboard";
  appPassword = "abcd EFGH ijkl MNOP qrst UVWX";
  plugins: FakeWordPressPlugin[] = [];

  constructor() {
    super();
    this.route("GET", "/wp-json/", () =>
      this.json(200, {
        name: this.name,
        description: this.description,
        url: this.origin,
        home: this.origin,
        gmt_offset: 0,
        timezone_string: "",
        namespaces: ["oembed/1.0", "wp/v2", "wp-site-health/v1"],
        authentication: { "application-passwords": { endpoints: { authorization: `${this.origin}/wp-admin/authorize-application.php` } } },
        routes: {},
      }),
    );
    this.route("GET", "/wp-json/wp/v2/plugins", (request) => this.pluginList(request));
  }

  private pluginList(request: FakeRequest): FakeAnswer {
    const header = request.headers.authorization;
    if (!header?.startsWith("Basic ")) return this.json(401, { code: "rest_not_logged_in", message: "You are not currently logged in.", data: { status: 401 } });
    const given = Buffer.from(header.slice(6), "base64").toString("utf8");
    if (given !== `${this.username}:${this.appPassword}`) {
      return this.json(401, { code: "incorrect_password", message: "The provided password is an invalid application password.", data: { status: 401 } });
    }
    return this.json(
      200,
      this.plugins.map((plugin) => ({
        plugin: plugin.plugin,
        status: plugin.status,
        name: plugin.name,
        plugin_uri: "https://wordpress.org/plugins/",
        author: "Someone",
        author_uri: "",
        description: { raw: `${plugin.name}.`, rendered: `<p>${plugin.name}.</p>` },
        version: plugin.version,
        network_only: false,
        requires_wp: "6.0",
        requires_php: "7.4",
        textdomain: plugin.plugin.split("/")[0],
        ...(plugin.update === undefined ? {} : { update: plugin.update }),
        _links: { self: [{ href: `${this.origin}/wp-json/wp/v2/plugins/${plugin.plugin}` }] },
      })),
    );
  }
}
