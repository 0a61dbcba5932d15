import { createSocket, type Socket } from "node:dgram";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { EgressGuard, type Resolver } from "@mw/platform";
import { capture, ensureNoWebrtcUdp, WEBRTC_NO_UDP_ARGS, WEBRTC_UDP_REFUSAL, webrtcUdpPackets } from "@mw/domains/managed-sites";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../support/wait.ts";

// Issue: screenshot pages reached UDP on 127.0.0.1 through WebRTC (STUN, TURN,
// ICE), around the egress proxy. A page that tries every one of them to a UDP
// socket of the test's must get no packet there.

const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((file): file is string => !!file && existsSync(file));
const resolve: Resolver = async (hostname) => (hostname === "public.test" ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "10.9.8.7", family: 4 }]);
const guard = new EgressGuard({ allowPrivate: false, resolve, trustedHosts: ["public.test"] });

let udp: Socket;
let packets = 0;
let server: Server;
let site: string;
let scriptRan = 0;

/** A page that opens WebRTC connections to the UDP socket by STUN, TURN over UDP and TCP, with ICE host candidates. */
function webrtcPage(target: string): string {
  return `<!doctype html><body>WebRTC page<script>
    fetch("/ran");
    const servers = ["stun:${target}", "turn:${target}?transport=udp", "turn:${target}?transport=tcp"];
    for (const urls of servers) {
      const connection = new RTCPeerConnection({ iceServers: [{ urls, username: "u", credential: "p" }], iceCandidatePoolSize: 4 });
      connection.createDataChannel("x");
      connection.createOffer().then((offer) => connection.setLocalDescription(offer));
    }
  </script></body>`;
}

beforeAll(async () => {
  udp = createSocket("udp4");
  udp.on("message", () => {
    packets += 1;
  });
  udp.bind(0, "127.0.0.1");
  await once(udp, "listening");
  const target = `127.0.0.1:${udp.address().port}`;
  server = createServer((req, res) => {
    if (req.url === "/ran") scriptRan += 1;
    res.writeHead(200, { "content-type": "text/html" }).end(webrtcPage(target));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  site = `http://public.test:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  udp.close();
  server.close();
});

describe.skipIf(!CHROMIUM)("WebRTC in the screenshot's browser (skipped without a Chromium here)", () => {
  it("a page that tries STUN and TURN to 127.0.0.1 sends no UDP packet there", async () => {
    packets = 0;
    scriptRan = 0;
    const shot = await capture(CHROMIUM!, site, 15_000, guard);
    expect([shot.status, shot.loaded]).toEqual([200, true]);
    await until(() => scriptRan > 0, () => "the page's script to run", 5000);
    // Time for late packets: STUN is sent as soon as the offer is set.
    await new Promise((done) => setTimeout(done, 1500));
    expect(packets).toBe(0);
  });

  it("the worker's check sees packets from a browser without the switch, none with it, and refuses the former", async () => {
    const plain = await chromium.launch({ executablePath: CHROMIUM!, args: ["--no-sandbox", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"] });
    try {
      expect(await webrtcUdpPackets(plain)).toBeGreaterThan(0);
      await expect(ensureNoWebrtcUdp("/a/browser/without/the/switch", plain)).rejects.toMatchObject({ code: "browser_unsafe", permanent: true, message: expect.stringContaining(WEBRTC_UDP_REFUSAL) });
    } finally {
      await plain.close();
    }
    const guarded = await chromium.launch({ executablePath: CHROMIUM!, args: ["--no-sandbox", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>", ...WEBRTC_NO_UDP_ARGS] });
    try {
      expect(await webrtcUdpPackets(guarded)).toBe(0);
    } finally {
      await guarded.close();
    }
  });
});
