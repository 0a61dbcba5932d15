import { createSocket } from "node:dgram";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { AppError } from "@mw/platform/core";
import type { Browser } from "playwright-core";

/**
 * The switch that keeps WebRTC to the proxy: with a proxy set, no UDP at all
 * (STUN, TURN over UDP, ICE host candidates), and TCP only through the proxy,
 * which the egress guard holds. Chromium 156 honours this spelling;
 * `--force-webrtc-ip-handling-policy`, which the screenshot used before, it
 * ignores (a page still reached UDP on 127.0.0.1).
 */
export const WEBRTC_NO_UDP_ARGS = ["--webrtc-ip-handling-policy=disable_non_proxied_udp"];

export const WEBRTC_UDP_REFUSAL =
  "Screenshots are refused: this Chromium sent WebRTC UDP past its proxy despite --webrtc-ip-handling-policy=disable_non_proxied_udp, so a page could reach UDP services inside the network (docs/security.md, \"Screenshots\"). Install a Chromium that honours the switch.";

/** The part of the page's RTCPeerConnection the probe uses (the worker is compiled without the DOM's types). */
interface Peer {
  createDataChannel(label: string): unknown;
  createOffer(): Promise<unknown>;
  setLocalDescription(description: unknown): Promise<void>;
  close(): void;
}
type PeerConstructor = new (config: { iceServers: { urls: string; username: string; credential: string }[] }) => Peer;

/** How long ICE is given to send its first packets: Chromium sends STUN at once when it sends any. */
const GATHER_MS = 2000;

/**
 * Sends, from a blank page of `browser`, STUN and TURN requests (UDP and TCP)
 * to a UDP socket of our own on 127.0.0.1, and answers how many packets
 * arrived. The page is not loaded from anywhere, so only WebRTC can send them.
 */
export async function webrtcUdpPackets(browser: Browser): Promise<number> {
  const socket = createSocket("udp4");
  let packets = 0;
  socket.on("message", () => {
    packets += 1;
  });
  socket.bind(0, "127.0.0.1");
  await once(socket, "listening");
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const target = `127.0.0.1:${socket.address().port}`;
    await page.evaluate(
      async ({ target, gatherMs }) => {
        const servers = [`stun:${target}`, `turn:${target}?transport=udp`, `turn:${target}?transport=tcp`];
        const RTCPeerConnection = (globalThis as unknown as { RTCPeerConnection: PeerConstructor }).RTCPeerConnection;
        const connections = servers.map((urls) => new RTCPeerConnection({ iceServers: [{ urls, username: "probe", credential: "probe" }] }));
        await Promise.all(
          connections.map(async (connection) => {
            connection.createDataChannel("probe");
            await connection.setLocalDescription(await connection.createOffer());
          }),
        );
        await new Promise((done) => setTimeout(done, gatherMs));
        for (const connection of connections) connection.close();
      },
      { target, gatherMs: GATHER_MS },
    );
    // Packets sent just before the page closed its connections are still on their way.
    await sleep(200);
    return packets;
  } finally {
    await context.close();
    socket.close();
  }
}

const verified = new Map<string, Promise<void>>();

/**
 * Refuses (permanently) a browser that sends WebRTC UDP although it was
 * started with WEBRTC_NO_UDP_ARGS: the switch is Chromium's, so each worker
 * process checks once per browser file that it holds before the first page.
 * A failed check is not remembered: the next job checks again.
 */
export function ensureNoWebrtcUdp(executablePath: string, browser: Browser): Promise<void> {
  let check = verified.get(executablePath);
  if (!check) {
    check = webrtcUdpPackets(browser).then((packets) => {
      if (packets > 0) throw AppError.permanent(`${WEBRTC_UDP_REFUSAL} (${packets} packets reached 127.0.0.1)`, "browser_unsafe");
    });
    verified.set(executablePath, check);
    check.catch(() => verified.delete(executablePath));
  }
  return check;
}
