import { XMLParser } from "fast-xml-parser";
import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import { REDACTED } from "@mw/platform/logging";
import { notConfigured, plainAnswerError, plainRequest } from "@mw/platform/http";
import { readNmiAnswer, readPlainTransaction } from "./answer.ts";
import { gatewayTransaction, type GatewayTransaction, type QueryWindow } from "./types.ts";

/**
 * The payment gateway follows the NMI Query API: one form-encoded POST to
 * GATEWAY_QUERY_URL, answered with XML. The security key travels only in the
 * request body (never in the URL), and no error message repeats it.
 */
const SYSTEM = "payment gateway";

/**
 * Transactions asked for per page (NMI's `result_limit`): an unpaged answer
 * is cut off by the gateway, so every query pages, and a page shorter than
 * this is the last.
 */
export const GATEWAY_PAGE_SIZE = 1000;

/** Only transactions with the auth code are parsed (see answer.ts); one <action> still comes back as a list. */
const transactionParser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  // Values stay text: order ids and auth codes of digits must not turn into numbers.
  parseTagValue: false,
  isArray: (_name, jpath) => jpath === "transaction.action",
});

/** Card digits of a dispute; an unknown part excludes nothing. */
export interface CardDigits {
  first6: string | null;
  last4: string | null;
}

export class GatewayClient {
  private constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
    private readonly maxPages: number,
  ) {}

  /** Fails "not configured" while GATEWAY_QUERY_URL is unset: no default points a test machine at a real gateway. */
  static fromConfig(config: Pick<Config, "GATEWAY_QUERY_URL" | "HTTP_TIMEOUT_MS" | "GATEWAY_QUERY_MAX_PAGES">): GatewayClient {
    if (!config.GATEWAY_QUERY_URL) throw notConfigured("payment gateway", "GATEWAY_QUERY_URL", "gateway_not_configured");
    return new GatewayClient(config.GATEWAY_QUERY_URL, config.HTTP_TIMEOUT_MS, config.GATEWAY_QUERY_MAX_PAGES);
  }

  /**
   * The query API has no authorization-code filter: the window is fetched,
   * page by page to its end, and matched here, trimmed and case-insensitively.
   * `scanned` is how many transactions the window held. An answer longer than
   * GATEWAY_QUERY_MAX_PAGES fails for good rather than match on part of it.
   */
  async findByAuthCode(securityKey: string, authCode: string, window: QueryWindow): Promise<{ scanned: number; matches: GatewayTransaction[] }> {
    const wanted = normaliseAuthCode(authCode);
    let scanned = 0;
    const matches: GatewayTransaction[] = [];
    for (let page = 0; ; page++) {
      if (page === this.maxPages) throw incomplete(this.maxPages, window);
      const chunks = await this.query(securityKey, window, page);
      scanned += chunks.length;
      // A cheap look at the raw text first; only candidates are parsed and compared exactly.
      for (const chunk of chunks) {
        const code = plainAuthCode(chunk);
        if (code !== null && normaliseAuthCode(code) !== wanted) continue;
        const tx = parseTransaction(chunk);
        if (normaliseAuthCode(tx.authorization_code) === wanted) matches.push(tx);
      }
      if (chunks.length < GATEWAY_PAGE_SIZE) return { scanned, matches };
    }
  }

  /**
   * The raw XML of each <transaction> of one page of the answer (`page_number` counts from 0). No `cc_number`
   * filter is sent: a single auth-code match must be linked whatever its card digits (spec 1, 3.2).
   */
  private async query(securityKey: string, window: QueryWindow, page: number): Promise<string[]> {
    const form = {
      security_key: securityKey,
      start_date: gatewayTime(window.start),
      end_date: gatewayTime(window.end),
      result_limit: String(GATEWAY_PAGE_SIZE),
      page_number: String(page),
    };
    // The hot path's plain request: got cost the worker more CPU than the rest of the query (docs/decisions.md).
    const answer = await plainRequest(SYSTEM, this.url, {
      setting: "GATEWAY_QUERY_URL",
      method: "POST",
      headers: { accept: "text/xml", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
      timeoutMs: this.timeoutMs,
    });
    if (answer.status < 200 || answer.status >= 300) throw plainAnswerError(SYSTEM, answer);
    const xml = answer.body;
    return transactionChunks(xml, securityKey);
  }
}

export function cardMatches(tx: GatewayTransaction, card: CardDigits): boolean {
  return (!card.first6 || tx.cc_bin === card.first6) && (!card.last4 || tx.cc_number.slice(-4) === card.last4);
}

/** `YYYYMMDDhhmmss` in UTC, the query API's date format. */
export function gatewayTime(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

function normaliseAuthCode(code: string): string {
  return code.trim().toUpperCase();
}

const AUTH_CODE_OPEN = "<authorization_code>";
const AUTH_CODE_CLOSE = "</authorization_code>";

/**
 * The text of a raw transaction's <authorization_code> when it is plain text
 * (NMI lists it before the transaction's actions); null when only parsing can
 * tell (absent, empty-element form, entities, CDATA, comments).
 */
function plainAuthCode(chunk: string): string | null {
  const open = chunk.indexOf(AUTH_CODE_OPEN);
  if (open < 0) return null;
  const start = open + AUTH_CODE_OPEN.length;
  const end = chunk.indexOf("<", start);
  if (end < 0 || !chunk.startsWith(AUTH_CODE_CLOSE, end)) return null;
  const text = chunk.slice(start, end);
  return text.includes("&") ? null : text;
}

function unexpected(what: string): AppError {
  return new AppError(502, "upstream_error", `${SYSTEM} answered with ${what}`);
}

function transactionChunks(xml: string, securityKey: string): string[] {
  const answer = readNmiAnswer(xml);
  if (!answer) throw unexpected("something other than an nm_response document");
  if (answer.errorResponse !== undefined) throw refused(answer.errorResponse, securityKey);
  return answer.transactions;
}

function parseTransaction(chunk: string): GatewayTransaction {
  let element: unknown;
  try {
    // NMI's usual shape is read without the parser, which cost the worker more than the rest of the match.
    element = readPlainTransaction(chunk) ?? (transactionParser.parse(`<transaction>${chunk}</transaction>`) as { transaction?: unknown }).transaction;
  } catch {
    element = undefined;
  }
  const parsed = gatewayTransaction.safeParse(element);
  if (!parsed.success) throw unexpected(`an unexpected transaction (${parsed.error.issues[0]?.path.join(".") || "root"})`);
  return parsed.data;
}

/** A full last page at the bound: the rest of the answer is unread, and a match on part of it could be the wrong one. */
function incomplete(maxPages: number, window: QueryWindow): AppError {
  const range = `${window.start.toISOString()} to ${window.end.toISOString()}`;
  const error = new AppError(
    502,
    "gateway_answer_incomplete",
    `${SYSTEM}'s answer for ${range} fills GATEWAY_QUERY_MAX_PAGES (${maxPages} pages of ${GATEWAY_PAGE_SIZE} transactions) and may hold more; nothing is linked from part of an answer: raise GATEWAY_QUERY_MAX_PAGES and replay the dispute`,
  );
  error.permanent = true;
  return error;
}

/**
 * `<error_response>` comes with HTTP 200 for a bad security key or a bad
 * parameter; asking again gets the same answer, so the failure is permanent.
 */
function refused(text: string, securityKey: string): AppError {
  const reason = securityKey ? text.replaceAll(securityKey, REDACTED) : text;
  const error = new AppError(502, "gateway_refused", `${SYSTEM} refused the query: ${reason.trim() || "no reason given"}`);
  error.permanent = true;
  return error;
}
