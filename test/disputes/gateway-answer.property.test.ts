import { readNmiAnswer, readPlainTransaction } from "@mw/providers/gateway";
import fc from "fast-check";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";

// The scan of an NMI answer's top level (answer.ts) against the XML parser it
// replaced on the hot path: fast-xml-parser with <transaction> as a stop node.
const reference = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  parseTagValue: false,
  stopNodes: ["nm_response.transaction"],
  isArray: (_name, jpath) => jpath === "nm_response.transaction",
});

function parsed(xml: string): { transactions: string[]; errorResponse?: string } | null {
  const root = (reference.parse(xml) as { nm_response?: unknown }).nm_response;
  if (root === undefined) return null;
  if (typeof root !== "object" || root === null) return { transactions: [] };
  const { error_response: refusal, transaction = [] } = root as { error_response?: unknown; transaction?: unknown[] };
  return { transactions: transaction.map(String), ...(refusal !== undefined && { errorResponse: String(refusal) }) };
}

// Text as NMI might send it, escaped; now and then a comment or a CDATA section holding markup.
const text = fc
  .array(fc.constantFrom("4111", "A1b2", " ", "&amp;", "&lt;", "&gt;", "x&#233;", "<![CDATA[</transaction> <nm_response>]]>", "<!-- </nm_response> -->"), { maxLength: 4 })
  .map((parts) => parts.join(""));
const leaf = fc.tuple(fc.constantFrom("transaction_id", "order_id", "authorization_code", "cc_number", "ponumber"), text, fc.boolean());
const element = ([name, value, selfClosing]: [string, string, boolean]) => (selfClosing && value === "" ? `<${name}/>` : `<${name}>${value}</${name}>`);
const action = fc.array(leaf, { maxLength: 3 }).map((leaves) => `<action>${leaves.map(element).join("\n")}</action>`);
const transaction = fc.tuple(fc.array(leaf, { maxLength: 5 }), fc.array(action, { maxLength: 2 })).map(([leaves, actions]) => `\n  ${[...leaves.map(element), ...actions].join("\n  ")}\n`);
const child = fc.oneof(
  transaction.map((inner) => `<transaction>${inner}</transaction>`),
  fc.constant("<!-- paging: none -->"),
  fc.constant("<total_count>3</total_count>"),
);
const answer = fc.tuple(fc.boolean(), fc.array(child, { maxLength: 5 }), fc.option(fc.constantFrom("Authentication Failed", "Invalid start_date &amp; end_date"))).map(
  ([declaration, children, refusal]) =>
    `${declaration ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ""}<nm_response>\n${[...(refusal === null ? [] : [`<error_response>${refusal}</error_response>`]), ...children].join("\n")}\n</nm_response>\n`,
);

describe("readNmiAnswer", () => {
  it("finds the same transactions and refusal as the XML parser", () => {
    fc.assert(
      fc.property(answer, (xml) => {
        expect(readNmiAnswer(xml)).toEqual(parsed(xml));
      }),
      { numRuns: 500 },
    );
  });

  it("reads an empty answer as no transactions, and anything but a whole nm_response document as nothing", () => {
    expect(readNmiAnswer('<?xml version="1.0"?>\n<nm_response/>')).toEqual({ transactions: [] });
    expect(readNmiAnswer("<nm_response>\n</nm_response>")).toEqual({ transactions: [] });
    expect(readNmiAnswer("<transaction><transaction_id>1</transaction_id></transaction>")).toBeNull();
    expect(readNmiAnswer("<html><body>502 Bad Gateway</body></html>")).toBeNull();
    expect(readNmiAnswer("")).toBeNull();
    expect(readNmiAnswer("Service unavailable")).toBeNull();
    // Cut off mid-answer: the old parser took what it had read; the scan refuses it, so the job retries.
    expect(readNmiAnswer("<nm_response><transaction><transaction_id>1</transaction_id></transaction><transac")).toBeNull();
    expect(readNmiAnswer("<nm_response><transaction a='>'><transaction_id>1</transaction_id></transaction></nm_response>")).toEqual({
      transactions: ["<transaction_id>1</transaction_id>"],
    });
  });
});

// One transaction's children, read without the parser when they have NMI's
// plain shape, against the parser the client uses for the rest.
const transactionReference = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  parseTagValue: false,
  isArray: (_name, jpath) => jpath === "transaction.action",
});
const plainText = fc
  .array(fc.constantFrom("4111", "A1b2", " ", "\n", "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "é"), { maxLength: 4 })
  .map((parts) => parts.join(""));
const names = ["transaction_id", "order_id", "authorization_code", "cc_number", "ponumber", "amount", "action_type", "date"];
const plainLeaves = fc.uniqueArray(fc.tuple(fc.constantFrom(...names), plainText, fc.boolean()), { selector: ([name]) => name, maxLength: 6 });
const plainAction = fc.uniqueArray(fc.tuple(fc.constantFrom(...names), plainText, fc.boolean()), { selector: ([name]) => name, minLength: 1, maxLength: 4 });
const plainTransaction = fc
  .tuple(plainLeaves, fc.array(plainAction, { maxLength: 3 }), fc.constantFrom("", "\n  ", " "))
  .filter(([leaves, actions]) => leaves.length + actions.length > 0)
  .map(([leaves, actions, gap]) => [...leaves.map(element), ...actions.map((leaves) => `<action>${leaves.map(element).join(gap)}</action>`)].join(gap));

describe("readPlainTransaction", () => {
  it("reads NMI's plain shape as the XML parser does", () => {
    fc.assert(
      fc.property(plainTransaction, (xml) => {
        const plain = readPlainTransaction(xml);
        expect(plain).not.toBeNull();
        expect(plain).toEqual((transactionReference.parse(`<transaction>${xml}</transaction>`) as { transaction: unknown }).transaction);
      }),
      { numRuns: 500 },
    );
  });

  it("leaves anything else to the parser", () => {
    for (const xml of [
      "<transaction_id>1</transaction_id><transaction_id>2</transaction_id>",
      "<transaction_id>1</transaction_id><note><![CDATA[a < b]]></note>",
      "<transaction_id>1</transaction_id><!-- x -->",
      "<transaction_id a='1'>1</transaction_id>",
      "<transaction_id>&#233;</transaction_id>",
      "<transaction_id>1</transaction_id><action></action>",
      "<transaction_id>1</transaction_id><action/>",
      "<transaction_id>1</transaction_id><action><amount><x>1</x></amount></action>",
      "<transaction_id>1</transaction_id>loose text",
      "",
    ]) {
      expect(readPlainTransaction(xml)).toBeNull();
    }
  });
});
