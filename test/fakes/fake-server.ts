import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The base of the HTTP fakes of external systems: a node:http server on
 * 127.0.0.1 (a free port) that records every request and answers it from a
 * small route table. A fake extends it, registers its routes with `route()`,
 * and overrides `answer()` when something comes before routing (credentials,
 * outages, rate limits) or `notFound()` for its own 404 body. A test can
 * step in before the fake answers with `intercept()`.
 */

export interface FakeRequest {
  method: string;
  /** Path and query as received, e.g. `/stores/abc123/v2/orders?page=2`. */
  url: string;
  /** The path alone, e.g. `/stores/abc123/v2/orders`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 text; "" when there is none. */
  body: string;
  /** The body's bytes, for binary uploads. */
  raw: Buffer;
  /** The status answered; unset until the answer is sent, and for a request dropped or left hanging. */
  status?: number;
  /** A streamed answer whose client closed the connection before its end. */
  cancelled?: boolean;
}

export interface FakeReply {
  status: number;
  /** Sent as it is, in whatever format `headers` names (`json()` builds JSON replies). */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Send only this many bytes of the body, then cut the connection (a server dying mid-answer). */
  cutAfter?: number;
  /** Written piece by piece as it yields (a streamed answer); a client that goes away stops it and marks the request `cancelled`. */
  stream?: AsyncIterable<string>;
}

/** A reply, or `drop` (the connection is cut without an answer), or `hang` (never answered; the client's timeout or `stop()` ends it). */
export type FakeAnswer = FakeReply | "drop" | "hang";

/** `params` holds the values of the pattern's `:name` parts. Async handlers may wait before answering, to answer late. */
export type FakeHandler = (request: FakeRequest, params: Record<string, string>) => FakeAnswer | Promise<FakeAnswer>;

/** A test's hook on every request: an answer replaces the fake's (a fault); undefined leaves the request to the fake. */
export type FakeInterceptor = (request: FakeRequest) => FakeAnswer | undefined | Promise<FakeAnswer | undefined>;

export interface FakeServerOptions {
  /** Put before every route pattern, e.g. `/wp-json` or `/stores/:hash`. */
  routePrefix?: string;
  /** The content type of `json()` replies; default `application/json`. */
  jsonType?: string;
}

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: FakeHandler;
}

export class FakeServer {
  readonly requests: FakeRequest[] = [];
  /** `http://127.0.0.1:<port>` once started. */
  origin = "";
  private readonly routes: Route[] = [];
  private readonly interceptors = new Set<FakeInterceptor>();
  private readonly routePrefix: string;
  private readonly jsonType: string;
  private server: Server | undefined;

  constructor(options: FakeServerOptions = {}) {
    this.routePrefix = options.routePrefix ?? "";
    this.jsonType = options.jsonType ?? "application/json";
  }

  /** Where clients reach the fake; a fake whose API lives under a base path overrides it. */
  get url(): string {
    return this.origin;
  }

  /**
   * Answers `method` on `pattern` (after the route prefix) with `handler`.
   * `:name` matches one path segment or part of one, e.g.
   * `/v2/orders/:id/shipments` or `/salesOrders(:id)`; the first route added wins.
   */
  route(method: string, pattern: string, handler: FakeHandler): this {
    const names: string[] = [];
    const source = `${this.routePrefix}${pattern}`
      .split(/(:[A-Za-z_]\w*)/)
      .map((part, i) => {
        if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(part.slice(1));
        return "([^/]+)";
      })
      .join("");
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler });
    return this;
  }

  /**
   * Lets a test act on requests before the fake answers them: answer in the
   * fake's place (a refusal, an outage), hold a request back, or change the
   * fake's data as if someone else did just then. Answers the function that
   * removes the hook.
   */
  intercept(interceptor: FakeInterceptor): () => void {
    this.interceptors.add(interceptor);
    return () => this.interceptors.delete(interceptor);
  }

  /** A JSON reply in this fake's JSON content type; `headers` may add to it or replace it. */
  json(status: number, body: unknown, headers: Record<string, string> = {}): FakeReply {
    return { status, headers: { "content-type": this.jsonType, ...headers }, body: JSON.stringify(body) };
  }

  async start(): Promise<this> {
    // A client that goes away mid-request leaves nothing to answer.
    const server = createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** Stops listening and cuts open connections, hanging requests included. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
  }

  /** How a request is answered: by default its route, else `notFound()`. */
  protected answer(request: FakeRequest): FakeAnswer | Promise<FakeAnswer> {
    const found = this.findRoute(request);
    return found ? found.handler(request, found.params) : this.notFound(request);
  }

  /** The route for the request, with its `:name` values (URL-decoded), if any route matches. */
  protected findRoute(request: FakeRequest): { handler: FakeHandler; params: Record<string, string> } | undefined {
    for (const route of this.routes) {
      const found = route.method === request.method ? route.pattern.exec(request.path) : null;
      if (found) return { handler: route.handler, params: Object.fromEntries(route.names.map((name, i) => [name, decode(found[i + 1]!)])) };
    }
    return undefined;
  }

  protected notFound(_request: FakeRequest): FakeAnswer {
    return { status: 404, headers: { "content-type": "text/plain" }, body: "Not Found" };
  }

  private async intercepted(request: FakeRequest): Promise<FakeAnswer | undefined> {
    for (const interceptor of this.interceptors) {
      const answer = await interceptor(request);
      if (answer !== undefined) return answer;
    }
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const url = req.url ?? "";
    const queryAt = url.indexOf("?");
    const request: FakeRequest = {
      method: req.method ?? "",
      url,
      path: queryAt < 0 ? url : url.slice(0, queryAt),
      query: new URLSearchParams(queryAt < 0 ? "" : url.slice(queryAt + 1)),
      headers: req.headers,
      raw,
      body: raw.toString("utf8"),
    };
    this.requests.push(request);
    let answer: FakeAnswer;
    try {
      answer = (await this.intercepted(request)) ?? (await this.answer(request));
    } catch (error) {
      // A broken handler shows up in the test as a 500 with its stack, not as a hanging request.
      answer = { status: 500, headers: { "content-type": "text/plain" }, body: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    if (answer === "hang") return;
    if (answer === "drop") {
      req.socket.destroy();
      return;
    }
    request.status = answer.status;
    res.writeHead(answer.status, answer.headers);
    if (answer.stream) {
      res.on("close", () => {
        if (!res.writableFinished) request.cancelled = true;
      });
      for await (const piece of answer.stream) {
        if (res.destroyed) return;
        res.write(piece);
      }
      res.end();
      return;
    }
    if (answer.cutAfter !== undefined) {
      res.write(Buffer.from(answer.body ?? "").subarray(0, answer.cutAfter), () => res.socket?.destroy());
      return;
    }
    res.end(answer.body);
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A request body that is a JSON object, or null (not JSON, or another JSON value). */
export function parseObject(body: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
