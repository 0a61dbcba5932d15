import { randomUUID } from "node:crypto";
import { FakeServer, type FakeAnswer, type FakeReply, type FakeRequest } from "./fake-server.ts";

export interface StoredChargeback {
  teamId: string;
  orderId: string;
  chargebackId: string;
  body: Record<string, unknown>;
}

const PATH = "/v3/orders/events/chargebacks";

/**
 * The Signifyd v3 chargeback endpoint on 127.0.0.1: HTTP Basic with the team's
 * API key and an empty password, the `SIGNIFYD-TEAM-ID` header naming that
 * key's team, Signifyd-style errors `{traceId, errors: {field: [message]}}`,
 * and one chargeback per chargebackId and team (409 for a repeat). Every
 * request is recorded; `hangAfterAccept` stores the next chargeback and then
 * never answers, as if the connection died after the service acted on it.
 */
export class FakeFraud extends FakeServer {
  readonly chargebacks: StoredChargeback[] = [];
  hangAfterAccept = false;

  /** API key -> team id. */
  constructor(private readonly teams: Map<string, string>) {
    super();
    this.route("POST", PATH, (request) => this.create(request));
  }

  private fail(status: number, errors: Record<string, string[]>): FakeReply {
    return this.json(status, { traceId: randomUUID(), errors });
  }

  private create(request: FakeRequest): FakeAnswer {
    const [scheme, encoded] = (request.headers.authorization ?? "").split(" ");
    const decoded = scheme === "Basic" && encoded ? Buffer.from(encoded, "base64").toString("utf8") : "";
    const apiKey = decoded.endsWith(":") ? decoded.slice(0, -1) : null;
    const teamId = apiKey === null ? undefined : this.teams.get(apiKey);
    if (teamId === undefined) return this.fail(401, { authorization: ["Invalid API key."] });
    if (request.headers["signifyd-team-id"] !== teamId) return this.fail(403, { teamId: ["The API key does not belong to this team."] });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return this.fail(400, { body: ["Malformed JSON."] });
    }
    const problems = invalidChargeback(body);
    if (problems) return this.fail(400, problems);
    const chargebackId = body.chargebackId as string;
    if (this.chargebacks.some((stored) => stored.teamId === teamId && stored.chargebackId === chargebackId)) {
      return this.fail(409, { chargebackId: [`Chargeback ${chargebackId} already exists.`] });
    }
    this.chargebacks.push({ teamId, orderId: body.orderId as string, chargebackId, body });
    if (this.hangAfterAccept) {
      this.hangAfterAccept = false;
      return "hang";
    }
    const chargeback = body.chargeback as { amount: unknown };
    return this.json(201, {
      signifydId: 1_000_000 + this.chargebacks.length,
      orderId: body.orderId,
      chargebackSummary: { chargebackId, stage: "CHARGEBACK", status: "OPEN", amount: chargeback.amount },
      claimSummary: { claimId: randomUUID(), status: "PENDING" },
    });
  }
}

function invalidChargeback(body: Record<string, unknown>): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  for (const field of ["orderId", "chargebackId"]) {
    if (typeof body[field] !== "string" || body[field] === "") errors[field] = ["must not be blank"];
  }
  const chargeback = body.chargeback as { amount?: { amount?: unknown; currencyCode?: unknown } } | undefined;
  if (typeof chargeback?.amount?.amount !== "number") errors["chargeback.amount.amount"] = ["must be a number"];
  if (typeof chargeback?.amount?.currencyCode !== "string" || !/^[A-Z]{3}$/.test(chargeback.amount.currencyCode)) {
    errors["chargeback.amount.currencyCode"] = ["must be an ISO 4217 code"];
  }
  return Object.keys(errors).length ? errors : null;
}
