import { once } from "node:events";
import { promises as dns } from "node:dns";
import { createServer, request as httpRequest, type RequestListener, type Server } from "node:http";
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import { addressRefusal, AppError, createHttpClient, EgressGuard, plainRequest, startEgressProxy, upstreamCall, type Resolver } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSink } from "../fakes/http-sink.ts";
import { closedPort } from "../support/api.ts";
import { failure } from "../support/errors.ts";

// The egress guard (docs/security.md, "Outbound requests") with ALLOW_PRIVATE_URLS
// off. Everything here listens on 127.0.0.1, which the guard refuses: a host
// that must be let through (the "public" first hop of a redirect) is named in
// `trustedHosts` and resolved to 127.0.0.1 by a resolver of the test's own.

const HINT = "(addresses inside the network are called only with ALLOW_PRIVATE_URLS=true)";
const refusedMessage = (system: string, host: string, why: string) => `${system} request failed: the host ${host} was refused: ${why} ${HINT}`;

/** `public.test` and `other.test` live on 127.0.0.1, `intranet.test` on a private address, `metadata.test` on the cloud metadata one; other names as the system says. */
const resolve: Resolver = async (hostname) => {
  const fixed: Record<string, { address: string; family: number }[]> = {
    "public.test": [{ address: "127.0.0.1", family: 4 }],
    "other.test": [{ address: "127.0.0.1", family: 4 }],
    "intranet.test": [{ address: "10.20.30.40", family: 4 }],
    "metadata.test": [{ address: "169.254.169.254", family: 4 }],
    "mixed.test": [
      { address: "93.184.216.34", family: 4 },
      { address: "192.168.1.10", family: 4 },
    ],
  };
  return fixed[hostname] ?? dns.lookup(hostname, { all: true });
};
const guard = new EgressGuard({ allowPrivate: false, resolve, trustedHosts: ["public.test"] });
const lifted = new EgressGuard({ allowPrivate: true, resolve });

const servers: Server[] = [];
const after: (() => Promise<unknown>)[] = [];
async function serve(handler: RequestListener): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

let internal: HttpSink;
/** Port of a "public" site whose /hop redirects to wherever `to` says. */
let hop: number;

beforeAll(async () => {
  internal = await new HttpSink().start();
  hop = await serve((req, res) => {
    const to = new URL(req.url ?? "/", "http://x").searchParams.get("to");
    if (to) res.writeHead(302, { location: to }).end();
    else res.writeHead(200, { "content-type": "text/plain" }).end("public page");
  });
});

afterAll(async () => {
  await internal.stop();
  for (const server of servers) server.closeAllConnections();
  await Promise.all([...servers.map((server) => new Promise((done) => server.close(done))), ...after.map((close) => close())]);
});

const internalUrl = () => `http://127.0.0.1:${new URL(internal.url).port}/secret`;

async function fetchThrough(egress: EgressGuard, url: string) {
  return upstreamCall("test system", () => createHttpClient({ timeoutMs: 2000, egress }).get(url));
}

describe("which addresses are refused", () => {
  it("refuses loopback, private, CGNAT, link-local (metadata), ULA, unspecified, multicast and reserved addresses, IPv4 inside IPv6 by its IPv4 address", () => {
    const refused = {
      "127.0.0.1": "a loopback address",
      "127.255.0.9": "a loopback address",
      "10.1.2.3": "a private address",
      "172.16.0.1": "a private address",
      "192.168.1.1": "a private address",
      "100.64.0.1": "a carrier-grade NAT address",
      "100.100.100.200": "a carrier-grade NAT address",
      "169.254.169.254": "a link-local address (cloud metadata services answer there)",
      "0.0.0.0": "an unspecified address",
      "224.0.0.251": "a multicast address",
      "255.255.255.255": "a broadcast address",
      "192.0.0.192": "a reserved address",
      "::1": "a loopback address",
      "::": "an unspecified address",
      "fe80::1": "a link-local address (cloud metadata services answer there)",
      "fd00:ec2::254": "a unique local (private IPv6) address",
      "ff02::1": "a multicast address",
      "::ffff:127.0.0.1": "a loopback address",
      "::ffff:a9fe:a9fe": "a link-local address (cloud metadata services answer there)",
      "64:ff9b::a00:1": "a private address",
    };
    for (const [address, why] of Object.entries(refused)) expect([address, addressRefusal(address)]).toEqual([address, why]);
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:93.184.216.34"]) expect([address, addressRefusal(address)]).toEqual([address, null]);
  });

  // The IANA IPv4 and IPv6 Special-Purpose Address Registries (as of 2025), one address of each entry that is not
  // globally reachable, and the deprecated IPv6 ranges that still reach local networks.
  const SPECIAL_PURPOSE: [registry: string, address: string][] = [
    ["0.0.0.0/8 this network", "0.1.2.3"],
    ["10.0.0.0/8 private", "10.0.0.1"],
    ["100.64.0.0/10 shared (CGNAT)", "100.127.255.254"],
    ["127.0.0.0/8 loopback", "127.0.0.2"],
    ["169.254.0.0/16 link-local", "169.254.0.1"],
    ["172.16.0.0/12 private", "172.31.255.255"],
    ["192.0.0.0/24 IETF protocol assignments", "192.0.0.8"],
    ["192.0.2.0/24 documentation", "192.0.2.1"],
    ["192.88.99.0/24 6to4 relay anycast (deprecated)", "192.88.99.1"],
    ["192.168.0.0/16 private", "192.168.0.1"],
    ["198.18.0.0/15 benchmarking", "198.19.0.1"],
    ["198.51.100.0/24 documentation", "198.51.100.7"],
    ["203.0.113.0/24 documentation", "203.0.113.9"],
    ["240.0.0.0/4 reserved", "250.0.0.1"],
    ["255.255.255.255/32 broadcast", "255.255.255.255"],
    ["::1/128 loopback", "::1"],
    ["::/128 unspecified", "::"],
    ["::ffff:0:0/96 IPv4-mapped", "::ffff:10.0.0.1"],
    ["64:ff9b::/96 IPv4-IPv6 translation", "64:ff9b::7f00:1"],
    ["64:ff9b:1::/48 IPv4-IPv6 translation, local use", "64:ff9b:1::a00:1"],
    ["64:ff9b:1::/48, with a public IPv4 address in it", "64:ff9b:1::808:808"],
    ["100::/64 discard-only", "100::1"],
    ["100:0:0:1::/64 dummy prefix", "100:0:0:1::1"],
    ["2001::/23 IETF protocol assignments", "2001:1::1"],
    ["2001::/32 Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["2001:2::/48 benchmarking", "2001:2::1"],
    ["2001:db8::/32 documentation", "2001:db8::1"],
    ["2002::/16 6to4, with 127.0.0.1 in it", "2002:7f00:1::1"],
    ["3fff::/20 documentation", "3fff::1"],
    ["5f00::/16 SRv6 SIDs", "5f00::1"],
    ["fc00::/7 unique local", "fc00::1"],
    ["fe80::/10 link-local", "fe80::1"],
    ["fec0::/10 site-local (deprecated)", "fec0::1"],
    ["::/96 IPv4-compatible (deprecated), as the URL parser writes [::127.0.0.1]", "::7f00:1"],
    ["::/96 IPv4-compatible, written with its IPv4 address", "::10.0.0.1"],
    ["::/96 IPv4-compatible, with a public IPv4 address in it", "::8.8.8.8"],
    ["::ffff:0:0:0/96 IPv4-translated (RFC 6145)", "::ffff:0:a9fe:a9fe"],
    ["ff00::/8 multicast", "ff05::2"],
  ];

  it.each(SPECIAL_PURPOSE)("refuses %s (%s)", (_registry, address) => {
    expect(addressRefusal(address)).not.toBeNull();
  });

  it("refuses each IPv6 form that carries a private or local IPv4 address, and names it as the IPv4 address where it is judged by it", () => {
    const words = {
      "::ffff:127.0.0.1": "a loopback address",
      "::ffff:0:127.0.0.1": "a loopback address",
      "64:ff9b::c0a8:101": "a private address",
      "::7f00:1": "an IPv4-compatible address (deprecated; it carries an IPv4 address)",
      "64:ff9b:1::a9fe:a9fe": "a local-use NAT64 address (it translates to an IPv4 address of the local network)",
      "fec0::1": "a site-local (private IPv6) address",
    };
    for (const [address, why] of Object.entries(words)) expect([address, addressRefusal(address)]).toEqual([address, why]);
  });

  it("refuses a URL naming [::127.0.0.1] before any connection", async () => {
    await expect(guard.checkDestination(new URL("http://[::127.0.0.1]:8080/"))).rejects.toMatchObject({ message: expect.stringContaining("IPv4-compatible") });
  });

  it("answers a socket's lookup with exactly the addresses it checked, and refuses a name with any internal address among its answers", async () => {
    const lookup = (hostname: string, options: { all?: boolean; family?: number }) =>
      new Promise((done, fail) => guard.lookup(hostname, options, (error, address, family) => (error ? fail(error) : done(options.all ? address : { address, family }))));
    await expect(lookup("public.test", { all: true })).resolves.toEqual([{ address: "127.0.0.1", family: 4 }]);
    await expect(lookup("public.test", {})).resolves.toEqual({ address: "127.0.0.1", family: 4 });
    await expect(lookup("mixed.test", { all: true })).rejects.toMatchObject({ code: "EGRESS_REFUSED", message: "the host mixed.test was refused: it resolves to a private address" });
    await expect(lookup("metadata.test", {})).rejects.toMatchObject({ message: "the host metadata.test was refused: it resolves to a link-local address (cloud metadata services answer there)" });
  });
});

describe("requests of the HTTP client factory (createHttpClient with `egress`)", () => {
  it("refuses an internal address written as such, as a name, and as IPv4 inside IPv6, before any connection", async () => {
    internal.requests.length = 0;
    const port = new URL(internal.url).port;
    const cases = [
      [`http://127.0.0.1:${port}/`, "127.0.0.1", "it is a loopback address"],
      [`http://localhost:${port}/`, "localhost", "it resolves to a loopback address"],
      [`http://[::ffff:127.0.0.1]:${port}/`, "::ffff:7f00:1", "it is a loopback address"],
      [`http://intranet.test:${port}/`, "intranet.test", "it resolves to a private address"],
      [`https://metadata.test/latest/meta-data/`, "metadata.test", "it resolves to a link-local address (cloud metadata services answer there)"],
    ];
    for (const [url, host, why] of cases) {
      const error = await failure(fetchThrough(guard, url!));
      expect([url, error.code, error.message, (error as AppError).permanent]).toEqual([url, "egress_refused", refusedMessage("test system", host!, why!), true]);
    }
    expect(internal.requests).toEqual([]);
  });

  it("checks every redirect: an allowed host redirecting to an internal address is refused there, and the internal page is never asked", async () => {
    internal.requests.length = 0;
    expect((await fetchThrough(guard, `http://public.test:${hop}/`)).body).toBe("public page");
    const toAddress = await failure(fetchThrough(guard, `http://public.test:${hop}/hop?to=${encodeURIComponent(internalUrl())}`));
    expect([toAddress.code, toAddress.message]).toEqual(["egress_refused", refusedMessage("test system", "127.0.0.1", "it is a loopback address")]);
    const toName = await failure(fetchThrough(guard, `http://public.test:${hop}/hop?to=${encodeURIComponent(`http://other.test:${new URL(internal.url).port}/secret`)}`));
    expect([toName.code, toName.message]).toEqual(["egress_refused", refusedMessage("test system", "other.test", "it resolves to a loopback address")]);
    expect(internal.requests).toEqual([]);

    // The same chain with the guard lifted reaches the internal page: the refusals above are the guard's doing.
    expect((await fetchThrough(lifted, `http://127.0.0.1:${hop}/hop?to=${encodeURIComponent(internalUrl())}`)).statusCode).toBe(200);
    expect(internal.requests.map((request) => request.path)).toEqual(["/secret"]);
  });

  it("does not follow a redirect to another scheme (got refuses it before the guard's own check)", async () => {
    const error = await failure(fetchThrough(guard, `http://public.test:${hop}/hop?to=${encodeURIComponent("file:///etc/passwd")}`));
    expect([error.code, error.message]).toEqual(["upstream_unreachable", "test system request failed: ERR_UNSUPPORTED_PROTOCOL"]);
  });

  it("says only that no HTTP answer came, whether the port is closed, resets, hangs or speaks another protocol", async () => {
    const trusted = new EgressGuard({ allowPrivate: false, resolve: async () => [{ address: "127.0.0.1", family: 4 }], trustedHosts: ["closed.test", "reset.test", "silent.test", "smtp.test"] });
    const reset = await serve((req) => req.socket.destroy());
    const silent = await serve(() => {});
    const bannerSockets: Socket[] = [];
    const banner = createNetServer((socket) => bannerSockets.push(socket.end("220 mail.internal ESMTP ready\r\n"))).listen(0, "127.0.0.1");
    await once(banner, "listening");
    // The HTTP client leaves the half-closed socket of a non-HTTP answer open (with or without the guard).
    after.push(() => {
      for (const socket of bannerSockets) socket.destroy();
      return new Promise((done) => banner.close(done));
    });
    const ports = { "closed.test": await closedPort(), "reset.test": reset, "silent.test": silent, "smtp.test": (banner.address() as AddressInfo).port };
    const messages = await Promise.all(
      Object.entries(ports).map(async ([host, port]) => {
        const error = await failure(upstreamCall("test system", () => createHttpClient({ timeoutMs: 500, egress: trusted }).get(`http://${host}:${port}/`)));
        return error.message.replace(`${host}:${port}`, "HOST");
      }),
    );
    expect(messages).toEqual(Array(4).fill("test system request failed: no HTTP answer from HOST"));
  });

  it("guards got's HTTP/2 connections as well (the audit asks for HTTP/2)", async () => {
    const error = await failure(upstreamCall("test system", () => createHttpClient({ timeoutMs: 2000, egress: guard }).get("https://intranet.test:8443/", { http2: true })));
    expect([error.code, error.message]).toEqual(["egress_refused", refusedMessage("test system", "intranet.test", "it resolves to a private address")]);
  });
});

describe("plainRequest with `egress`", () => {
  it("refuses an internal address and a name resolving to one, and reaches an allowed host", async () => {
    internal.requests.length = 0;
    const port = new URL(internal.url).port;
    for (const [url, host, why] of [
      [`http://127.0.0.1:${port}/`, "127.0.0.1", "it is a loopback address"],
      [`http://intranet.test:${port}/`, "intranet.test", "it resolves to a private address"],
    ]) {
      const error = await failure(plainRequest("plain system", url!, { method: "GET", timeoutMs: 1000, egress: guard }));
      expect([error.code, error.message]).toEqual(["egress_refused", refusedMessage("plain system", host!, why!)]);
    }
    expect(internal.requests).toEqual([]);
    expect(await plainRequest("plain system", `http://public.test:${hop}/`, { method: "GET", timeoutMs: 1000, egress: guard })).toMatchObject({ status: 200, body: "public page" });
  });
});

describe("the browser's proxy (startEgressProxy)", () => {
  let proxy: Awaited<ReturnType<typeof startEgressProxy>>;
  beforeAll(async () => {
    proxy = await startEgressProxy(guard, 2000);
  });
  afterAll(async () => {
    await proxy.close();
  });

  /** A request as a browser sends it to its proxy: the absolute URL as the target. */
  function viaProxy(url: string): Promise<{ status: number; body: string }> {
    const { port } = new URL(proxy.url);
    return new Promise((done, fail) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: url, headers: { host: new URL(url).host, "proxy-connection": "keep-alive" } }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => done({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", fail);
      req.end();
    });
  }

  /** The first line of the proxy's answer to `CONNECT target`. */
  async function tunnelTo(target: string): Promise<string> {
    const socket = connect(Number(new URL(proxy.url).port), "127.0.0.1");
    socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    const [chunk] = (await once(socket, "data")) as [Buffer];
    socket.destroy();
    return chunk.toString().split("\r\n")[0]!;
  }

  it("passes on plain http to an allowed host and refuses an internal one, by address or name", async () => {
    internal.requests.length = 0;
    expect(await viaProxy(`http://public.test:${hop}/`)).toEqual({ status: 200, body: "public page" });
    expect(await viaProxy(internalUrl())).toEqual({ status: 403, body: "Refused by the egress guard: the host 127.0.0.1 was refused: it is a loopback address" });
    expect(await viaProxy(`http://intranet.test:${new URL(internal.url).port}/`)).toEqual({ status: 403, body: "Refused by the egress guard: the host intranet.test was refused: it resolves to a private address" });
    expect(internal.requests).toEqual([]);
  });

  it("opens CONNECT tunnels only to allowed hosts", async () => {
    internal.requests.length = 0;
    expect(await tunnelTo(`public.test:${hop}`)).toBe("HTTP/1.1 200 Connection Established");
    expect(await tunnelTo(`127.0.0.1:${new URL(internal.url).port}`)).toBe("HTTP/1.1 403 Forbidden");
    expect(await tunnelTo(`[::1]:${new URL(internal.url).port}`)).toBe("HTTP/1.1 403 Forbidden");
    expect(await tunnelTo("metadata.test:80")).toBe("HTTP/1.1 403 Forbidden");
    expect(internal.requests).toEqual([]);
  });
});
