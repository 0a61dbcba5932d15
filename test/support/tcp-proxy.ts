import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export type ProxyMode = "pass" | "cut" | "hang";

/**
 * A TCP proxy in front of a real server (MariaDB, Redis) for outage tests:
 * `pass` forwards, `cut` destroys every connection and refuses new ones at
 * once (the server went away), `hang` accepts and never forwards a byte (a
 * server or network that stopped answering).
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly clientSockets = new Set<Socket>();
  mode: ProxyMode = "pass";

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = "127.0.0.1",
  ) {}

  async start(): Promise<this> {
    this.server = createServer((client) => this.accept(client));
    this.server.listen(0, "127.0.0.1");
    await new Promise((resolve) => this.server!.once("listening", resolve));
    return this;
  }

  /** Client connections open through the proxy now. */
  get clients(): number {
    return this.clientSockets.size;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  /** Switches mode; `cut` and `hang` also drop the connections already open, as a restart or a network cut does. */
  set(mode: ProxyMode): void {
    this.mode = mode;
    if (mode !== "pass") this.dropAll();
  }

  dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  async stop(): Promise<void> {
    this.dropAll();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  }

  private accept(client: Socket): void {
    this.track(client);
    this.clientSockets.add(client);
    client.on("close", () => this.clientSockets.delete(client));
    if (this.mode === "cut") return void client.destroy();
    if (this.mode === "hang") return;
    const upstream = connect(this.targetPort, this.targetHost);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  }
}
