import type { Got, Response } from "got";
import type { Config } from "../../config.ts";
import { AppError } from "../../errors.ts";
import { createHttpClient, upstreamCall, type UpstreamDetail } from "../../http.ts";
import type { ErpErrorBody, ODataCollection, SalesOrder, SalesOrderInput } from "./types.ts";

/** The ERP API of docs/erp-api.md. */
export class ErpClient {
  private constructor(private readonly http: Got) {}

  /** Null when ERP_BASE_URL is unset: callers report the ERP as unconfigured instead of failing on a request. */
  static fromConfig(config: Pick<Config, "ERP_BASE_URL" | "ERP_TOKEN" | "HTTP_TIMEOUT_MS">): ErpClient | null {
    if (!config.ERP_BASE_URL) return null;
    const headers: Record<string, string> = { accept: "application/json" };
    if (config.ERP_TOKEN) headers.authorization = `Bearer ${config.ERP_TOKEN}`;
    return new ErpClient(createHttpClient({ baseUrl: config.ERP_BASE_URL, headers, timeoutMs: config.HTTP_TIMEOUT_MS }));
  }

  async findSalesOrderByExternalNumber(externalDocumentNumber: string): Promise<SalesOrder | null> {
    const page = await call(() =>
      this.http
        .get("salesOrders", { searchParams: { $filter: `externalDocumentNumber eq ${odataString(externalDocumentNumber)}`, $top: 1 } })
        .json<ODataCollection<SalesOrder>>(),
    );
    return page.value[0] ?? null;
  }

  /** Fails with an error that `isDuplicateSalesOrder` recognises when the ERP already holds this external number. */
  async createSalesOrder(body: SalesOrderInput): Promise<SalesOrder> {
    return call(() => this.http.post("salesOrders", { json: body }).json<SalesOrder>());
  }
}

/** The ERP refused a second sales order for the same externalDocumentNumber (409). */
export function isDuplicateSalesOrder(error: unknown): boolean {
  return error instanceof AppError && error.data.upstream_status === 409;
}

function call<T>(request: () => Promise<T>): Promise<T> {
  return upstreamCall("ERP", request, errorDetail);
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
  return { reason: detail?.message, data: { ...(detail && { erp_code: detail.code }), ...(retryAfter && { retry_after: retryAfter }) } };
}
