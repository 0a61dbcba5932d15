import { HTTPError, type Got, type Response } from "got";
import { AppError, chunks } from "@mw/platform/core";
import type { RedisClient } from "@mw/platform/redis";
import { createHttpClient, JOB_DELAY_MS, jobDelayFromRetryAfter, upstreamCall, upstreamError, type UpstreamDetail } from "@mw/platform/http";
import { ERP_TOKEN_ENDPOINT, erpTokens, type ErpTokenConfig, type ErpTokens } from "./token.ts";
import type { ErpErrorBody, ErpItem, ODataCollection, SalesOrder, SalesOrderInput, SalesOrderLine, SalesShipment } from "./types.ts";

/** How the ERP's failures name it. */
const SYSTEM = "ERP";

/** Values per `or` filter: keeps the URL well under the 2 KB that proxies in front of an ERP tend to allow. */
const VALUES_PER_FILTER = 20;

/** The ERP API of docs/erp-api.md. */
/** Why ERP work fails while ERP_BASE_URL is unset; the order sweep knows this verdict ends once it is set. */
export const ERP_NOT_CONFIGURED = "ERP is not configured: ERP_BASE_URL is unset";

export function erpNotConfigured(): AppError {
  return AppError.permanent(ERP_NOT_CONFIGURED, "erp_not_configured");
}

export class ErpClient {
  private readonly http: Got;
  private answeredOnce = false;

  private constructor(
    http: Got,
    private readonly origin: string,
    private readonly tokens: ErpTokens,
  ) {
    // Each request carries the token current when it is sent, so a long export moves on to a renewed one.
    this.http = http.extend({
      hooks: {
        beforeRequest: [
          async (options) => {
            const token = await tokens.current();
            if (token) options.headers.authorization = `Bearer ${token}`;
          },
        ],
      },
    });
  }

  /**
   * Null when ERP_BASE_URL is unset: callers report the ERP as unconfigured
   * instead of failing on a request. With `redis`, an OAuth token is shared
   * with the other processes (docs/erp-api.md, "Authentication").
   */
  static fromConfig(config: ErpTokenConfig & { ERP_BASE_URL?: string | undefined }, redis?: RedisClient): ErpClient | null {
    if (!config.ERP_BASE_URL) return null;
    const http = createHttpClient({ baseUrl: config.ERP_BASE_URL, setting: "ERP_BASE_URL", headers: { accept: "application/json" }, timeoutMs: config.HTTP_TIMEOUT_MS });
    return new ErpClient(http, new URL(config.ERP_BASE_URL).origin, erpTokens(config, redis));
  }

  async findSalesOrderByExternalNumber(externalDocumentNumber: string): Promise<SalesOrder | null> {
    const page = await this.call(() =>
      this.http
        .get("salesOrders", { searchParams: { $filter: `externalDocumentNumber eq ${odataString(externalDocumentNumber)}`, $top: 1 } })
        .json<ODataCollection<SalesOrder>>(),
    );
    return page.value[0] ?? null;
  }

  /** A sales order with its lines, by the ERP's own number; null when the ERP has no such order. */
  async readSalesOrder(number: string): Promise<{ order: SalesOrder; lines: SalesOrderLine[] } | null> {
    const [order] = await this.collectWhere<SalesOrder>("salesOrders", "number", [number]);
    if (!order) return null;
    const lines = await this.collect<SalesOrderLine>(`salesOrders(${order.id})/salesOrderLines`, {});
    return { order, lines };
  }

  /** Fails with an error that `isDuplicateSalesOrder` recognises when the ERP already holds this external number. */
  async createSalesOrder(body: SalesOrderInput): Promise<SalesOrder> {
    return this.call(() => this.http.post("salesOrders", { json: body }).json<SalesOrder>());
  }

  /** The shipments of these sales orders (by ERP sales order number). */
  async listSalesShipments(orderNumbers: string[]): Promise<SalesShipment[]> {
    return this.collectWhere<SalesShipment>("salesShipments", "orderNumber", orderNumbers);
  }

  /** Every item with its stock, or only the items with these numbers (SKUs). */
  async listItems(numbers?: string[]): Promise<ErpItem[]> {
    return numbers ? this.collectWhere<ErpItem>("items", "number", numbers) : this.collect<ErpItem>("items", {});
  }

  /** Entities whose `field` equals one of `values`, asked for a few values at a time with an OData `or` filter. */
  private async collectWhere<T>(path: string, field: string, values: string[]): Promise<T[]> {
    const found: T[] = [];
    for (const group of chunks([...new Set(values)], VALUES_PER_FILTER)) {
      found.push(...(await this.collect<T>(path, { $filter: group.map((value) => `${field} eq ${odataString(value)}`).join(" or ") })));
    }
    return found;
  }

  /** A whole collection: the ERP answers 100 entities at a time and names the next page in `@odata.nextLink`. */
  private async collect<T>(path: string, searchParams: Record<string, string>): Promise<T[]> {
    const found: T[] = [];
    let page = await this.call(() => this.http.get(path, { searchParams }).json<ODataCollection<T>>());
    found.push(...page.value);
    while (page["@odata.nextLink"]) {
      const next = page["@odata.nextLink"];
      // The token goes with every request: a next page on another host is refused rather than followed.
      const host = new URL(next, this.origin).origin;
      if (host !== this.origin) throw new AppError(502, "upstream_error", `ERP named a next page on another host (${host}); not followed.`);
      // The link is absolute, so the base URL must not be put in front of it again.
      page = await this.call(() => this.http.get(next, { prefixUrl: "" }).json<ODataCollection<T>>());
      found.push(...page.value);
    }
    return found;
  }

  /**
   * One request; a 401 gets one more try with a renewed token (one revoked or
   * expired before its time). The token is fetched first, so a failing token
   * endpoint is reported as itself rather than as a failed ERP request.
   */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    await this.tokens.current();
    const answer = await this.send(request);
    this.answeredOnce = true;
    return answer;
  }

  /** True once the ERP answered a call of this client: it took our credentials. */
  get answered(): boolean {
    return this.answeredOnce;
  }

  private async send<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      const refused = error instanceof HTTPError && error.response.statusCode === 401 ? bearerOf(error.response) : null;
      if (refused === null || (await this.tokens.renew(refused)) === null) throw upstreamError(SYSTEM, error, errorDetail);
      return upstreamCall(SYSTEM, request, errorDetail);
    }
  }
}

/**
 * The ERP or its token endpoint does not take our credentials (401/403; a
 * 401 only after the one renewal was refused too): every ERP call fails alike
 * until an operator fixes ERP_TOKEN or the client credentials.
 */
export function isErpCredentialsRefusal(error: unknown): boolean {
  const upstream = error instanceof AppError ? error.upstream : undefined;
  return upstream?.kind === "unauthorized" && (upstream.system === SYSTEM || upstream.system === ERP_TOKEN_ENDPOINT);
}

/**
 * The ERP's token endpoint refused the platform's client credentials
 * (`invalid_client`, 401/403): ERP_CLIENT_ID or ERP_CLIENT_SECRET is wrong for
 * every call at once. Nothing is wrong with the work that asked: it waits for
 * an operator to put the settings right.
 */
export function isErpClientRefusal(error: unknown): boolean {
  const upstream = error instanceof AppError ? error.upstream : undefined;
  return upstream?.kind === "unauthorized" && upstream.system === ERP_TOKEN_ENDPOINT;
}

/** Whether a job's failure reason is such a refusal (its message as the HTTP client words it). */
export function isErpClientRefusalReason(reason: string | null): boolean {
  return reason !== null && new RegExp(`^${ERP_TOKEN_ENDPOINT} answered HTTP 40[13]\\b`).test(reason);
}

/** The token a refused request carried ("" when it carried none). */
function bearerOf(response: Response): string {
  const header = response.request.options.headers.authorization;
  return typeof header === "string" ? header.replace(/^Bearer /, "") : "";
}

/** The ERP refused a second sales order for the same externalDocumentNumber (a 409, upstream kind conflict). */
export function isDuplicateSalesOrder(error: unknown): boolean {
  return error instanceof AppError && error.upstream?.kind === "conflict";
}

/** OData string literal: single quotes, an inner quote doubled. */
function odataString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The ERP's own `{error: {code, message}}` and its `Retry-After`, so the job's
 * failure reason and the errors table say why the ERP refused (e.g. a blocked
 * customer), not only the status code.
 */
function errorDetail(body: unknown, response: Response): UpstreamDetail {
  const inner = (body as Partial<ErpErrorBody> | null | undefined)?.error;
  const detail = typeof inner?.message === "string" ? { code: String(inner.code ?? ""), message: inner.message } : undefined;
  const retryAfter = response.headers["retry-after"];
  // A 429 or 503 that names its wait puts the job back for that long instead of failing the attempt.
  const delay = response.statusCode === 429 || response.statusCode === 503 ? jobDelayFromRetryAfter(retryAfter) : null;
  return {
    reason: detail?.message,
    data: { ...(detail && { erp_code: detail.code }), ...(retryAfter && { retry_after: retryAfter }), ...(delay !== null && { [JOB_DELAY_MS]: delay }) },
  };
}
