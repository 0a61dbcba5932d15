import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { egressRefusalIn, type EgressGuard } from "./guard.ts";

/** A forward proxy on 127.0.0.1 whose every connection passes the egress guard. */
export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  url: string;
  close(): Promise<void>;
}

/** Headers that belong to one connection, not to the request passed on (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade"]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

/** What the browser shows instead of the page: the refusal in words, or that no answer came (the same for every kind of failure). */
function failureText(error: unknown): { status: number; text: string } {
  const refused = egressRefusalIn(error);
  return refused ? { status: 403, text: `Refused by the egress guard: ${refused.message}` } : { status: 502, text: "No HTTP answer from the host" };
}

/** A plain-http request (`GET http://host/path`), passed on through the guard's agent. */
function forward(guard: EgressGuard, request: http.IncomingMessage, response: http.ServerResponse, timeoutMs: number): void {
  const fail = (error: unknown) => {
    // An answer cut off halfway stays cut off: the browser sees the broken page, not our text inside it.
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const { status, text } = failureText(error);
    response.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(text);
  };
  let target: URL;
  try {
    target = new URL(request.url ?? "");
    if (target.protocol !== "http:") throw new Error("only http URLs are proxied without CONNECT");
    guard.checkUrl(target);
  } catch (error) {
    fail(error);
    return;
  }
  const upstream = http.request(target, { method: request.method, headers: endToEnd(request.headers), agent: guard.agents.http, timeout: timeoutMs }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
    answer.pipe(response);
  });
  upstream.on("timeout", () => upstream.destroy(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })));
  upstream.on("error", fail);
  request.pipe(upstream);
}

/** `CONNECT host:port` (https, WebSockets): a TCP tunnel to an address the guard let through. */
function tunnel(guard: EgressGuard, request: http.IncomingMessage, client: Duplex, head: Buffer, timeoutMs: number, open: Set<Duplex>): void {
  const refuse = (error: unknown) => {
    const { status, text } = failureText(error);
    client.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  };
  let host: string;
  let port: number;
  try {
    const target = new URL(`http://${request.url ?? ""}`);
    host = target.hostname.replace(/^\[(.*)\]$/, "$1");
    port = Number(target.port || 443);
    const refused = guard.literalRefusal(host);
    if (refused) throw refused;
  } catch (error) {
    refuse(error);
    return;
  }
  const upstream = net.connect({ host, port, lookup: guard.lookup, timeout: timeoutMs });
  let connected = false;
  open.add(upstream);
  upstream.once("close", () => open.delete(upstream));
  upstream.once("connect", () => {
    connected = true;
    upstream.setTimeout(0);
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.once("timeout", () => upstream.destroy(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })));
  upstream.on("error", (error) => {
    if (connected) client.destroy();
    else refuse(error);
  });
  client.on("error", () => upstream.destroy());
  client.once("close", () => upstream.destroy());
}

/**
 * Starts the proxy a browser is pointed at (`--proxy-server`, with
 * `--proxy-bypass-list=<-loopback>` so that loopback goes through it too):
 * Chromium runs without its sandbox where the worker runs as root, so the
 * pages it loads, their redirects and subresources reach only what the guard
 * lets through (docs/security.md). `timeoutMs` bounds each connection attempt.
 */
export async function startEgressProxy(guard: EgressGuard, timeoutMs: number): Promise<EgressProxy> {
  const open = new Set<Duplex>();
  const server = http.createServer((request, response) => forward(guard, request, response, timeoutMs));
  server.on("connect", (request: http.IncomingMessage, client: Duplex, head: Buffer) => tunnel(guard, request, client, head, timeoutMs, open));
  server.on("connection", (socket: net.Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of open) socket.destroy();
      await closed;
    },
  };
}
