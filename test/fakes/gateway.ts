import { gatewayTime } from "@mw/providers/gateway";
import { XMLBuilder } from "fast-xml-parser";
import { FakeServer, type FakeAnswer, type FakeReply, type FakeRequest } from "./fake-server.ts";

/** What a test says about a transaction; the rest of NMI's record is filled in. */
export interface SeedTransaction {
  transaction_id: string;
  authorization_code: string;
  /** The sale's time, UTC. */
  date: Date;
  order_id?: string;
  /** Full test card number; the answer shows it masked as NMI does. */
  card?: string;
  amount?: string;
  currency?: string;
}

const PATH = "/api/query.php";
/** The rows an answer without `result_limit` is cut off after, as a real gateway's is. */
export const UNPAGED_LIMIT = 1000;
const builder = new XMLBuilder({ format: true, ignoreAttributes: true });

/**
 * The NMI Query API on 127.0.0.1: `POST /api/query.php` with a form body,
 * transactions per security key, the `start_date`/`end_date` window
 * (`YYYYMMDDhhmmss`, UTC) applied to action dates, `cc_number` (full or last
 * four) and the XML answer with NMI's element names and order, including
 * `<error_response>` with HTTP 200 for a bad key or parameter. Paged as NMI
 * pages: `result_limit` rows from `page_number` (from 0); an unpaged answer
 * is cut off after UNPAGED_LIMIT rows. Every request is recorded; keys in
 * `hanging` get no answer at all.
 */
export class FakeGateway extends FakeServer {
  private readonly accounts = new Map<string, Record<string, unknown>[]>();
  /** Answers already built, per security key and query: building a hundred transactions' XML costs the bench more than the worker's reading it. */
  private readonly answers = new Map<string, Map<string, FakeReply>>();
  readonly hanging = new Set<string>();

  constructor() {
    super();
    this.route("POST", PATH, (request) => this.query(request));
  }

  /** GATEWAY_QUERY_URL. */
  override get url(): string {
    return `${this.origin}${PATH}`;
  }

  addTransaction(securityKey: string, seed: SeedTransaction): void {
    const list = this.accounts.get(securityKey) ?? [];
    list.push(nmiTransaction(seed));
    this.accounts.set(securityKey, list);
    this.answers.delete(securityKey);
  }

  /** The security keys the recorded queries carried, in order. */
  queriedKeys(): string[] {
    return this.requests.map((request) => new URLSearchParams(request.body).get("security_key") ?? "");
  }

  private query(request: FakeRequest): FakeAnswer {
    const form = new URLSearchParams(request.body);
    const key = form.get("security_key") ?? "";
    const transactions = this.accounts.get(key);
    if (!transactions) return xml({ error_response: "Authentication Failed" });
    if (this.hanging.has(key)) return "hang";
    const start = form.get("start_date");
    const end = form.get("end_date");
    for (const [name, value] of [["start_date", start], ["end_date", end]] as const) {
      if (value !== null && !/^\d{14}$/.test(value)) return xml({ error_response: `Invalid ${name} format` });
    }
    const card = form.get("cc_number");
    const limit = form.get("result_limit");
    const page = form.get("page_number");
    for (const [name, value] of [["result_limit", limit], ["page_number", page]] as const) {
      if (value !== null && !/^\d+$/.test(value)) return xml({ error_response: `Invalid ${name}` });
    }
    const pageSize = limit === null ? UNPAGED_LIMIT : Number(limit);
    const from = pageSize * Number(page ?? 0);
    const built = this.answers.get(key) ?? new Map<string, FakeReply>();
    this.answers.set(key, built);
    const query = JSON.stringify([start, end, card, pageSize, from]);
    let answer = built.get(query);
    if (!answer) {
      const matching = transactions.filter((tx) => {
        const dates = (tx.action as { date: string }[]).map((action) => action.date);
        const inWindow = dates.some((date) => (!start || date >= start) && (!end || date <= end));
        return inWindow && (!card || String(tx.cc_number).slice(-4) === card.slice(-4));
      }).slice(from, from + pageSize);
      const reply = xml(matching.length ? { transaction: matching } : "");
      answer = { ...reply, body: Buffer.from(reply.body as string) };
      built.set(query, answer);
    }
    return answer;
  }
}

function xml(body: unknown): FakeReply {
  return { status: 200, headers: { "content-type": "text/xml; charset=UTF-8" }, body: `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ nm_response: body })}` };
}

/** A transaction as NMI lists it (a subset of its many empty elements), in NMI's element order. */
function nmiTransaction(seed: SeedTransaction): Record<string, unknown> {
  const card = seed.card ?? "4111111111111111";
  const amount = seed.amount ?? "49.90";
  return {
    transaction_id: seed.transaction_id,
    partial_payment_id: "",
    partial_payment_balance: "",
    platform_id: "",
    transaction_type: "cc",
    condition: "pendingsettlement",
    order_id: seed.order_id ?? "",
    authorization_code: seed.authorization_code,
    ponumber: "",
    order_description: "",
    first_name: "Jane",
    last_name: "Doe",
    address_1: "1 Main St",
    city: "Springfield",
    state: "IL",
    postal_code: "62701",
    country: "US",
    email: "jane@example.com",
    cc_number: `${card[0]}${"x".repeat(card.length - 5)}${card.slice(-4)}`,
    cc_hash: "f6c609e195d9d4c185dcc8ca662f0180",
    cc_exp: "0629",
    avs_response: "Y",
    csc_response: "M",
    processor_id: "ccprocessora",
    tax: "0.00",
    currency: seed.currency ?? "USD",
    cc_bin: card.slice(0, 6),
    cc_type: card.startsWith("4") ? "visa" : "mastercard",
    action: [
      {
        amount,
        action_type: "sale",
        date: gatewayTime(seed.date),
        success: "1",
        ip_address: "203.0.113.7",
        source: "api",
        api_method: "api",
        username: "merchant",
        response_text: "SUCCESS",
        batch_id: "0",
        processor_batch_id: "",
        response_code: "100",
        processor_response_text: "",
        processor_response_code: "",
        requested_amount: amount,
      },
    ],
  };
}
