import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface SinkRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/**
 * A plain HTTP endpoint standing in for health-check URLs and chat incoming
 * webhooks: it records every request and answers after `delayMs` with `status`.
 */
export class HttpSink {
  readonly requests: SinkRequest[] = [];
  delayMs = 0;
  status = 200;
  private server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        this.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
        setTimeout(() => {
          res.writeHead(this.status, { "content-type": "application/json" });
          res.end(JSON.stringify({ ok: this.status < 400 }));
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => {
      this.server?.close(resolve);
      this.server?.closeAllConnections();
    });
  }
}
