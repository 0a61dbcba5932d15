import { HTTPError, type Got } from "got";
import type { Config } from "../../config.ts";
import { AppError } from "../../errors.ts";
import { createHttpClient, upstreamError } from "../../http.ts";
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

async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw erpError(error);
  }
}

/** OData string literal: single quotes, an inner quote doubled. */
function odataString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * upstreamError plus the ERP's own `{error: {code, message}}`, so the job's
 * failure reason and the errors table say why the ERP refused (e.g. a blocked
 * customer), not only the status code.
 */
function erpError(error: unknown): AppError {
  const mapped = upstreamError("ERP", error);
  if (!(error instanceof HTTPError)) return mapped;
  const detail = errorBody(error.response.body);
  const retryAfter = error.response.headers["retry-after"];
  const data = { ...mapped.data, ...(detail && { erp_code: detail.code }), ...(retryAfter && { retry_after: retryAfter }) };
  const message = detail ? `${mapped.message}: ${detail.message}` : mapped.message;
  const result = new AppError(mapped.status, mapped.code, message, data, { cause: error });
  result.permanent = mapped.permanent;
  return result;
}

function errorBody(body: unknown): ErpErrorBody["error"] | undefined {
  try {
    const parsed = (typeof body === "string" ? JSON.parse(body) : body) as Partial<ErpErrorBody> | undefined;
    const inner = parsed?.error;
    return typeof inner?.message === "string" ? { code: String(inner.code ?? ""), message: inner.message } : undefined;
  } catch {
    return undefined;
  }
}
