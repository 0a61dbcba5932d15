import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { ACCOUNT_KEYS, type ErpItem, type SalesOrder, type SalesOrderInput, type SalesOrderLine, type SalesShipment } from "@mw/providers/erp";
import { FakeServer, type FakeAnswer, type FakeReply, type FakeRequest } from "./fake-server.ts";

/** unavailable: 503 with an error body; drop: the connection is cut; hang: never answered. */
export type ErpOutage = "unavailable" | "drop" | "hang";

/** Where a Business Central tenant puts a company's API; the client must cope with a base URL that has a path. */
const BASE_PATH = "/api/v2.0/companies(8f1c2a9e)";
/** The OAuth 2.0 token endpoint, on the same fake (a real tenant has it on its identity provider's host). */
const TOKEN_PATH = "/oauth2/v2.0/token";
const MAX_LINES = 500;

const REQUIRED_TEXT = [
  "externalDocumentNumber",
  "orderDate",
  "customerNumber",
  "shippingAgentCode",
  "shippingAgentServiceCode",
  "email",
  "billToName",
  "billToAddressLine1",
  "billToCity",
  "billToState",
  "billToPostCode",
  "billToCountry",
  "shipToName",
  "shipToAddressLine1",
  "shipToCity",
  "shipToState",
  "shipToPostCode",
  "shipToCountry",
] as const;
const OPTIONAL_TEXT = [
  "externalTransactionId",
  "phoneNumber",
  "billToCompany",
  "billToAddressLine2",
  "shipToCompany",
  "shipToAddressLine2",
  "shipToPhoneNumber",
] as const;
const LINE_FIELDS = new Set(["sequence", "lineType", "lineObjectNumber", "quantity", "unitPrice", "discountAmount", "description"]);
const ORDER_FIELDS = new Set<string>([...REQUIRED_TEXT, ...OPTIONAL_TEXT, "salesOrderLines"]);

/**
 * The ERP of docs/erp-api.md (sales orders, sales shipments, items) on
 * 127.0.0.1: bearer check, OData `$filter` (`eq` terms joined by `or`),
 * `$top`/`$skip` with `@odata.nextLink`, Business Central-style errors, one
 * sales order per externalDocumentNumber. Every request is recorded (`url` is
 * path and query as sent, the company base path included); switches simulate
 * outages, rate limiting and refusals.
 */
export class FakeErp extends FakeServer {
  readonly salesOrders: SalesOrder[] = [];
  readonly salesShipments: SalesShipment[] = [];
  /** Sales order id -> its lines as stored (the read-back the verification asks for). */
  readonly salesOrderLines = new Map<string, SalesOrderLine[]>();
  readonly items: ErpItem[] = [];
  outage: ErpOutage | null = null;
  /** The next this many requests get 429 with `Retry-After`. */
  rateLimited = 0;
  retryAfterSeconds = 2;
  /** externalDocumentNumber -> the message of the 422 its POST gets. */
  readonly rejections = new Map<string, string>();
  /** externalDocumentNumber -> the total the ERP gives the order instead of the lines' sum (its own prices or rounding). */
  readonly reportedTotals = new Map<string, number>();
  /** While set, reading a sales order's lines gets 503: the ERP took the order but cannot show it yet. */
  salesOrderLinesUnavailable = false;
  /** Each request waits this long before it is looked at, so tests can make two runs overlap. */
  delayMs = 0;
  pageSize = 100;
  /** When set, next-page links point at this origin instead of the ERP's own (a misconfigured or hostile server). */
  nextLinkOrigin: string | null = null;
  /** The client-credentials pair the token endpoint accepts, and the scope it requires. */
  readonly clientId = "mw-erp-client";
  readonly clientSecret = "erp-client-secret-3f9a61";
  readonly scope = "https://api.businesscentral.dynamics.com/.default";
  /** The `expires_in` of the tokens it issues; an issued token is refused (401) once that has passed. */
  tokenLifetimeSeconds = 3600;
  /** While set, every bearer token is refused (401): ERP_TOKEN revoked or rotated on the ERP's side. */
  refuseEveryToken = false;
  /** Issued token -> when it expires (ms). */
  readonly issuedTokens = new Map<string, number>();
  private nextNumber = 100001;

  constructor(readonly token: string) {
    super({ routePrefix: BASE_PATH, jsonType: "application/json; odata.metadata=minimal" });
    this.route("GET", "/salesOrders", (request) => this.list(request, "salesOrders", this.salesOrders));
    this.route("POST", "/salesOrders", (request) => this.create(request.body));
    this.route("GET", "/salesOrders(:id)/salesOrderLines", (request, params) => {
      if (this.salesOrderLinesUnavailable) return this.fail(503, "ServiceUnavailable", "The service is temporarily unavailable. Please try again later.");
      const lines = this.salesOrderLines.get(params.id!);
      return lines ? this.list(request, "salesOrderLines", lines) : this.fail(404, "BadRequest_NotFound", `The sales order '${params.id}' does not exist.`);
    });
    this.route("GET", "/salesShipments", (request) => this.list(request, "salesShipments", this.salesShipments));
    this.route("GET", "/items", (request) => this.list(request, "items", this.items));
  }

  /** The company's API base, what ERP_BASE_URL is set to. */
  override get url(): string {
    return `${this.origin}${BASE_PATH}`;
  }

  /** What ERP_TOKEN_URL is set to. */
  get tokenUrl(): string {
    return `${this.origin}${TOKEN_PATH}`;
  }

  /** The ERP forgets every token it issued (revoked, or its signing key rotated): they get 401 before their expiry. */
  revokeIssuedTokens(): void {
    this.issuedTokens.clear();
  }

  /** The requests made to the token endpoint. */
  tokenRequests(): FakeRequest[] {
    return this.requests.filter((request) => request.url === TOKEN_PATH);
  }

  reset(): void {
    this.requests.length = 0;
    this.salesOrders.length = 0;
    this.salesShipments.length = 0;
    this.salesOrderLines.clear();
    this.items.length = 0;
    this.outage = null;
    this.rateLimited = 0;
    this.rejections.clear();
    this.reportedTotals.clear();
    this.salesOrderLinesUnavailable = false;
    this.delayMs = 0;
    this.pageSize = 100;
    this.nextLinkOrigin = null;
    this.tokenLifetimeSeconds = 3600;
    this.refuseEveryToken = false;
    this.issuedTokens.clear();
    this.nextNumber = 100001;
  }

  /** A sales order the ERP already holds, e.g. created by an export that crashed before storing the number. */
  seed(input: SalesOrderInput): SalesOrder {
    return this.store(input);
  }

  /** A posted sales shipment; `number` and `id` are made up when not given. */
  addShipment(shipment: Omit<SalesShipment, "id" | "number" | "externalDocumentNumber"> & Partial<SalesShipment>): SalesShipment {
    const stored: SalesShipment = { id: randomUUID(), number: `SSH-${this.salesShipments.length + 100001}`, externalDocumentNumber: "", ...shipment };
    this.salesShipments.push(stored);
    return stored;
  }

  /** An item with its stock. */
  addItem(number: string, inventory: number): ErpItem {
    const item: ErpItem = { id: randomUUID(), number, displayName: `Item ${number}`, unitPrice: 10, inventory, lastModifiedDateTime: new Date().toISOString() };
    this.items.push(item);
    return item;
  }

  protected override async answer(request: FakeRequest): Promise<FakeAnswer> {
    if (this.outage === "hang") return "hang";
    if (this.outage === "drop") return "drop";
    await sleep(this.delayMs);
    if (this.outage === "unavailable") return this.fail(503, "ServiceUnavailable", "The service is temporarily unavailable. Please try again later.");
    if (request.method === "POST" && request.url === TOKEN_PATH) return this.issueToken(request.body);
    if (this.rateLimited > 0) {
      this.rateLimited -= 1;
      return this.fail(429, "Application_TooManyRequests", "Too many requests reached. Please retry later.", {
        "retry-after": String(this.retryAfterSeconds),
      });
    }
    if (!this.accepts(request.headers.authorization)) {
      return this.fail(401, "Authentication_InvalidCredentials", "The credentials provided are incorrect.", { "www-authenticate": "Bearer" });
    }
    return super.answer(request);
  }

  private accepts(authorization: string | undefined): boolean {
    if (this.refuseEveryToken) return false;
    if (authorization === `Bearer ${this.token}`) return true;
    const expiresAt = this.issuedTokens.get(authorization?.replace(/^Bearer /, "") ?? "");
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  /** RFC 6749, 4.4: a form-encoded client-credentials grant; errors as the identity provider gives them. */
  private issueToken(body: string): FakeReply {
    const form = new URLSearchParams(body);
    if (form.get("grant_type") !== "client_credentials") return this.json(400, { error: "unsupported_grant_type" });
    if (form.get("client_id") !== this.clientId || form.get("client_secret") !== this.clientSecret) {
      return this.json(401, { error: "invalid_client", error_description: "Invalid client secret provided." });
    }
    if (form.get("scope") !== this.scope) return this.json(400, { error: "invalid_scope", error_description: `The scope '${form.get("scope")}' is not valid.` });
    const token = `erp-at-${randomUUID()}`;
    this.issuedTokens.set(token, Date.now() + this.tokenLifetimeSeconds * 1000);
    return this.json(200, { token_type: "Bearer", expires_in: this.tokenLifetimeSeconds, access_token: token });
  }

  protected override notFound(request: FakeRequest): FakeAnswer {
    return this.fail(404, "BadRequest_NotFound", `No HTTP resource was found that matches the request URI '${this.fullUrl(request).href}'.`);
  }

  /** A Business Central error: `{error: {code, message}}`. */
  private fail(status: number, code: string, message: string, headers: Record<string, string> = {}): FakeReply {
    return this.json(status, { error: { code, message } }, headers);
  }

  private fullUrl(request: FakeRequest): URL {
    return new URL(request.url || "/", `http://${request.headers.host}`);
  }

  private list(request: FakeRequest, name: string, collection: object[]): FakeReply {
    const url = this.fullUrl(request);
    let matches = collection;
    const filter = url.searchParams.get("$filter");
    if (filter !== null) {
      const terms = parseFilter(filter);
      if (!terms) return this.fail(400, "BadRequest", `The $filter '${filter}' is not supported.`);
      matches = matches.filter((entity) => terms.some(([field, value]) => (entity as Record<string, unknown>)[field] === value));
    }
    const skip = count(url.searchParams.get("$skip")) ?? 0;
    const top = count(url.searchParams.get("$top")) ?? Infinity;
    if (Number.isNaN(skip) || Number.isNaN(top)) return this.fail(400, "BadRequest", "$top and $skip must be whole numbers.");
    const wanted = matches.slice(skip, skip + top);
    const page = wanted.slice(0, this.pageSize);
    const payload: Record<string, unknown> = { "@odata.context": `${this.url}/$metadata#${name}`, value: page };
    if (wanted.length > page.length) {
      const next = new URL(url);
      next.searchParams.set("$skip", String(skip + page.length));
      if (top !== Infinity) next.searchParams.set("$top", String(top - page.length));
      payload["@odata.nextLink"] = this.nextLinkOrigin ? `${this.nextLinkOrigin}${next.pathname}${next.search}` : next.href;
    }
    return this.json(200, payload);
  }

  private create(body: string): FakeReply {
    let input: unknown;
    try {
      input = JSON.parse(body);
    } catch {
      return this.fail(400, "BadRequest", "The request body is not valid JSON.");
    }
    const problem = invalidSalesOrder(input);
    if (problem) return this.fail(400, "BadRequest", problem);
    const order = input as SalesOrderInput;
    const ext = order.externalDocumentNumber;
    if (this.salesOrders.some((existing) => existing.externalDocumentNumber === ext)) {
      return this.fail(409, "Internal_EntityWithSameKeyExists", `Sales order already exists for externalDocumentNumber '${ext}'.`);
    }
    const rejection = this.rejections.get(ext);
    if (rejection) return this.fail(422, "Application_ValidationError", rejection);
    const unknownAccount = order.salesOrderLines.find(
      (line) => line.lineType === "Account" && !(ACCOUNT_KEYS as readonly string[]).includes(line.lineObjectNumber),
    );
    if (unknownAccount) return this.fail(422, "Application_ValidationError", `Account key '${unknownAccount.lineObjectNumber}' does not exist.`);
    const created = this.store(order);
    return this.json(201, { "@odata.context": `${this.url}/$metadata#salesOrders/$entity`, ...created }, { location: `${this.url}/salesOrders(${created.id})` });
  }

  private store(input: SalesOrderInput): SalesOrder {
    const { salesOrderLines, ...header } = input;
    const total = salesOrderLines.reduce((sum, line) => sum + line.quantity * line.unitPrice - line.discountAmount, 0);
    const order: SalesOrder = {
      ...header,
      id: randomUUID(),
      number: `SO-${this.nextNumber++}`,
      status: "Open",
      totalAmountExcludingTax: this.reportedTotals.get(input.externalDocumentNumber) ?? Math.round(total * 100) / 100,
      lastModifiedDateTime: new Date().toISOString(),
    };
    this.salesOrders.push(order);
    this.salesOrderLines.set(
      order.id,
      salesOrderLines.map((line) => ({ id: randomUUID(), documentId: order.id, description: "", ...line })),
    );
    return order;
  }
}

/** `field eq 'text'` terms joined by ` or `, as [field, text] pairs; null for anything else. */
function parseFilter(filter: string): [string, string][] | null {
  const term = /^(\w+) eq '((?:[^']|'')*)'/;
  const terms: [string, string][] = [];
  for (let rest = filter; ; rest = rest.slice(4)) {
    const match = term.exec(rest);
    if (!match) return null;
    terms.push([match[1]!, match[2]!.replaceAll("''", "'")]);
    rest = rest.slice(match[0].length);
    if (rest === "") return terms;
    if (!rest.startsWith(" or ")) return null;
  }
}

/** Null for an absent option, NaN for one that is not a whole number. */
function count(raw: string | null): number | undefined {
  if (raw === null) return undefined;
  return /^\d+$/.test(raw) ? Number(raw) : NaN;
}

/** What Business Central would say about a malformed body, or null when the body is well formed. */
function invalidSalesOrder(input: unknown): string | null {
  if (!isObject(input)) return "The request body must be a JSON object.";
  const unknown = Object.keys(input).find((key) => !ORDER_FIELDS.has(key));
  if (unknown) return `The property '${unknown}' does not exist on type 'salesOrder'.`;
  const missing = REQUIRED_TEXT.find((key) => !nonEmptyText(input[key]));
  if (missing) return `Missing or invalid property '${missing}'.`;
  const blank = OPTIONAL_TEXT.find((key) => key in input && !nonEmptyText(input[key]));
  if (blank) return `Invalid property '${blank}': leave it out instead of sending it empty.`;
  if ((input.externalDocumentNumber as string).length > 35) return "externalDocumentNumber is longer than 35 characters.";
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.orderDate as string)) return "orderDate must be YYYY-MM-DD.";
  const lines = input.salesOrderLines;
  if (!Array.isArray(lines) || lines.length < 1 || lines.length > MAX_LINES) return `salesOrderLines must hold 1 to ${MAX_LINES} lines.`;
  const sequences = new Set<unknown>();
  for (const [i, line] of lines.entries()) {
    const problem = invalidLine(line);
    if (problem) return `salesOrderLines[${i}]: ${problem}`;
    if (sequences.has(line.sequence)) return `salesOrderLines[${i}]: sequence ${line.sequence} is used twice.`;
    sequences.add(line.sequence);
  }
  return null;
}

function invalidLine(line: unknown): string | null {
  if (!isObject(line)) return "must be an object.";
  const unknown = Object.keys(line).find((key) => !LINE_FIELDS.has(key));
  if (unknown) return `The property '${unknown}' does not exist on type 'salesOrderLine'.`;
  if (!Number.isInteger(line.sequence) || (line.sequence as number) < 1) return "sequence must be a whole number from 1.";
  if (line.lineType !== "Item" && line.lineType !== "Account") return "lineType must be Item or Account.";
  if (!nonEmptyText(line.lineObjectNumber)) return "lineObjectNumber is required.";
  if (typeof line.quantity !== "number" || !(line.quantity > 0)) return "quantity must be above 0.";
  if (typeof line.unitPrice !== "number" || !Number.isFinite(line.unitPrice)) return "unitPrice must be a number.";
  if (typeof line.discountAmount !== "number" || !(line.discountAmount >= 0)) return "discountAmount must be 0 or more.";
  if ("description" in line && !(nonEmptyText(line.description) && line.description.length <= 100)) return "description must be 1 to 100 characters.";
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonEmptyText(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}
