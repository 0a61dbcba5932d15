import { HTTPError, type Got } from "got";
import type { Config } from "../../platform/config.ts";
import { createHttpClient, upstreamCall, upstreamError, type UpstreamDetail } from "../../platform/http.ts";

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

const clients = new WeakMap<object, FraudClient>();

export class FraudClient {
  private constructor(private readonly http: Got) {}

  /** One client per config object (building a got instance costs more than a request); each team's credentials go with its requests. */
  static fromConfig(config: Pick<Config, "FRAUD_API_URL" | "HTTP_TIMEOUT_MS">): FraudClient {
    let client = clients.get(config);
    if (!client) {
      client = new FraudClient(createHttpClient({ baseUrl: config.FRAUD_API_URL, timeoutMs: config.HTTP_TIMEOUT_MS, headers: { accept: "application/json" } }));
      clients.set(config, client);
    }
    return client;
  }

  /** Submits the chargeback once: a repeat of the same chargebackId is answered 409, which counts as done. */
  async submitChargeback(credentials: FraudCredentials, event: ChargebackEvent): Promise<FraudSubmission> {
    const headers = { authorization: `Basic ${Buffer.from(`${credentials.apiKey}:`).toString("base64")}`, "signifyd-team-id": credentials.teamId };
    const response = await upstreamCall(SYSTEM, () => this.http.post(CHARGEBACKS, { headers, json: event, responseType: "json", throwHttpErrors: false }));
    if (response.statusCode === 409) return { response: response.body, alreadySubmitted: true };
    if (!response.ok) throw upstreamError(SYSTEM, new HTTPError(response), errorDetail);
    return { response: response.body, alreadySubmitted: false };
  }
}
