import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import { jsonOrUndefined, notConfigured, plainAnswerError, plainRequest, type UpstreamDetail } from "@mw/platform/http";

/**
 * The fraud-protection service follows the Signifyd API v3: HTTP Basic with
 * the team's API key as user and an empty password, the team id in the
 * `SIGNIFYD-TEAM-ID` header, JSON in and out.
 */
const SYSTEM = "fraud service";
const CHARGEBACKS = "v3/orders/events/chargebacks";

export interface FraudCredentials {
  teamId: string;
  apiKey: string;
}

/** The chargeback event (`POST /v3/orders/events/chargebacks`) with the members the platform sends. */
export interface ChargebackEvent {
  /** The order id the fraud service knows the order by: our order number. */
  orderId: string;
  /** Unique per chargeback at the fraud service: the acquirer's case id. */
  chargebackId: string;
  chargeback: {
    amount: { amount: number; currencyCode: string };
    reason: { processorReasonCode?: string; processorReasonDescription?: string };
  };
}

export interface FraudSubmission {
  /** The service's full JSON answer. */
  response: unknown;
  /** True when the service already held this chargebackId (409): an earlier run submitted it. */
  alreadySubmitted: boolean;
}

/** Signifyd errors are `{traceId, errors: {<field>: [message, ...]}}`. */
function errorDetail(body: unknown): UpstreamDetail | undefined {
  const errors = (body as { errors?: unknown } | null | undefined)?.errors;
  if (!errors || typeof errors !== "object") return undefined;
  const messages = Object.entries(errors).flatMap(([field, list]) => (Array.isArray(list) ? list.map((m) => `${field}: ${String(m)}`) : []));
  return messages.length ? { reason: messages.join("; ") } : undefined;
}

export class FraudClient {
  private constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  /** Fails "not configured" while FRAUD_API_URL is unset: no default points a test machine at a real service. */
  static fromConfig(config: Pick<Config, "FRAUD_API_URL" | "HTTP_TIMEOUT_MS">): FraudClient {
    if (!config.FRAUD_API_URL) throw notConfigured("fraud service", "FRAUD_API_URL", "fraud_not_configured");
    return new FraudClient(new URL(CHARGEBACKS, config.FRAUD_API_URL.endsWith("/") ? config.FRAUD_API_URL : `${config.FRAUD_API_URL}/`).href, config.HTTP_TIMEOUT_MS);
  }

  /**
   * Submits the chargeback once, with the team's credentials: a repeat of the same chargebackId is answered 409,
   * which counts as done. A plain request, as the gateway query (the dispute pipeline's hot path).
   */
  async submitChargeback(credentials: FraudCredentials, event: ChargebackEvent): Promise<FraudSubmission> {
    const answer = await plainRequest(SYSTEM, this.url, {
      setting: "FRAUD_API_URL",
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${credentials.apiKey}:`).toString("base64")}`,
        "signifyd-team-id": credentials.teamId,
        accept: "application/json",
        "content-type": "application/json",
      },
      body: JSON.stringify(event),
      timeoutMs: this.timeoutMs,
    });
    if (answer.status !== 409 && (answer.status < 200 || answer.status >= 300)) throw plainAnswerError(SYSTEM, answer, errorDetail);
    const body = jsonOrUndefined(answer.body);
    if (body === undefined) throw new AppError(502, "upstream_error", `${SYSTEM} answered HTTP ${answer.status} with a body that is not JSON`);
    return { response: body, alreadySubmitted: answer.status === 409 };
  }
}
