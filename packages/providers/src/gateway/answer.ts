/**
 * The top level of an NMI Query API answer, read by one scan of its tags
 * instead of an XML parser: a ±2-day window holds a hundred transactions or
 * more, and only the one or two with the dispute's auth code are parsed (by
 * the client). The scan follows nesting, and skips comments, CDATA,
 * processing instructions and quoted attribute values, so whatever they hold
 * cannot end an element early.
 */
export interface NmiAnswer {
  /** The raw XML inside each top-level <transaction>, in document order. */
  transactions: string[];
  /** The text of <error_response>, entities decoded; absent when there is none. */
  errorResponse?: string;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decodeText(text: string): string {
  return text
    .replace(/&(?:#x([0-9a-f]+)|#(\d+)|(lt|gt|amp|quot|apos));/gi, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
      if (name) return ENTITIES[name.toLowerCase()] ?? whole;
      const code = hex ? parseInt(hex, 16) : Number(dec);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .trim();
}

/** Where the tag opened at `lt` ends (its `>`), quoted attribute values skipped; -1 when it never does. */
function tagEnd(xml: string, lt: number): number {
  for (let i = lt + 1; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (c === 62 /* > */) return i;
    if (c === 34 /* " */ || c === 39 /* ' */) {
      i = xml.indexOf(xml[i]!, i + 1);
      if (i < 0) return -1;
    }
  }
  return -1;
}

/** Past a comment, CDATA section, processing instruction or declaration at `lt`; -1 when unterminated; `lt` itself for an element tag. */
function skipSpecial(xml: string, lt: number): number {
  const terminator = xml.startsWith("<!--", lt) ? "-->" : xml.startsWith("<![CDATA[", lt) ? "]]>" : xml.startsWith("<?", lt) ? "?>" : xml.startsWith("<!", lt) ? ">" : null;
  if (terminator === null) return lt;
  const end = xml.indexOf(terminator, lt + 2);
  return end < 0 ? -1 : end + terminator.length;
}

/** A comment, CDATA, processing instruction or declaration, or a <transaction> start or end tag. */
const TRANSACTION_MARKUP = /<(?:[!?]|(\/?)transaction[\s/>])/g;

function tagName(xml: string, from: number, end: number): string {
  let i = from;
  while (i < end) {
    const c = xml.charCodeAt(i);
    if (c === 47 /* / */ || c === 32 || c === 9 || c === 10 || c === 13) break;
    i++;
  }
  return xml.slice(from, i);
}

/** The answer's transactions and refusal; null when it is not a complete `<nm_response>` document. */
export function readNmiAnswer(xml: string): NmiAnswer | null {
  // The prolog: declaration, comments, doctype, whitespace.
  let pos = 0;
  for (;;) {
    const lt = xml.indexOf("<", pos);
    if (lt < 0 || xml.slice(pos, lt).trim() !== "") return null;
    const next = skipSpecial(xml, lt);
    if (next < 0) return null;
    if (next === lt) {
      pos = lt;
      break;
    }
    pos = next;
  }
  const rootEnd = tagEnd(xml, pos);
  if (rootEnd < 0 || tagName(xml, pos + 1, rootEnd) !== "nm_response") return null;
  const answer: NmiAnswer = { transactions: [] };
  if (xml[rootEnd - 1] === "/") return answer;

  // Depth below the root; a top-level child's name and where its content starts.
  let depth = 0;
  let child = "";
  let childStart = 0;
  const keep = (name: string, content: string) => {
    if (name === "transaction") answer.transactions.push(content);
    else if (name === "error_response" && answer.errorResponse === undefined) answer.errorResponse = decodeText(content);
  };
  pos = rootEnd + 1;
  for (;;) {
    const lt = xml.indexOf("<", pos);
    if (lt < 0) return null;
    const skipped = skipSpecial(xml, lt);
    if (skipped < 0) return null;
    if (skipped !== lt) {
      pos = skipped;
      continue;
    }
    const gt = tagEnd(xml, lt);
    if (gt < 0) return null;
    if (xml[lt + 1] === "/") {
      if (depth === 0) return tagName(xml, lt + 2, gt) === "nm_response" ? answer : null;
      depth -= 1;
      if (depth === 0) keep(child, xml.slice(childStart, lt));
    } else if (xml[gt - 1] === "/") {
      if (depth === 0) keep(tagName(xml, lt + 1, gt), "");
    } else {
      if (depth === 0) {
        child = tagName(xml, lt + 1, gt);
        childStart = gt + 1;
        if (child === "transaction") {
          // Fast path: the next markup of interest is this transaction's end tag, so nothing in between can end it early.
          TRANSACTION_MARKUP.lastIndex = childStart;
          const next = TRANSACTION_MARKUP.exec(xml);
          if (next?.[1] === "/") {
            keep(child, xml.slice(childStart, next.index));
            pos = tagEnd(xml, next.index);
            if (pos < 0) return null;
            pos += 1;
            continue;
          }
        }
      }
      depth += 1;
    }
    pos = gt + 1;
  }
}

/** A plain element with text only: `<name>text</name>` or `<name/>`; the text holds no markup and no character reference. */
const PLAIN_ELEMENT = /\s*<([A-Za-z_][\w.-]*)(?:\/>|>([^<&]*(?:&(?:lt|gt|amp|quot|apos);[^<&]*)*)<\/\1>)/y;
const ACTION_START = /\s*<action>/y;
const ACTION_END = /\s*<\/action>/y;

/** Plain children from `pos`; their end, or -1 when something else (a name twice, nesting, CDATA, a comment) comes first. */
function plainChildren(xml: string, pos: number, into: Record<string, unknown>): number {
  for (;;) {
    PLAIN_ELEMENT.lastIndex = pos;
    const match = PLAIN_ELEMENT.exec(xml);
    if (!match || match[1] === "action") return pos;
    const name = match[1]!;
    if (Object.hasOwn(into, name)) return -1;
    into[name] = match[2] === undefined ? "" : decodeText(match[2]);
    pos = PLAIN_ELEMENT.lastIndex;
  }
}

/**
 * The children of one <transaction> as an XML parser reads them (values as
 * trimmed, decoded text; `action` always a list), for the shape NMI sends:
 * plain elements and <action> elements of plain elements. Anything else
 * answers null, and the caller parses it fully.
 */
export function readPlainTransaction(xml: string): Record<string, unknown> | null {
  const transaction: Record<string, unknown> = {};
  const actions: Record<string, unknown>[] = [];
  let pos = 0;
  for (;;) {
    pos = plainChildren(xml, pos, transaction);
    if (pos < 0) return null;
    ACTION_START.lastIndex = pos;
    if (!ACTION_START.test(xml)) break;
    const action: Record<string, unknown> = {};
    pos = plainChildren(xml, ACTION_START.lastIndex, action);
    if (pos < 0 || Object.keys(action).length === 0) return null;
    ACTION_END.lastIndex = pos;
    if (!ACTION_END.test(xml)) return null;
    actions.push(action);
    pos = ACTION_END.lastIndex;
  }
  if (xml.slice(pos).trim() !== "" || (actions.length === 0 && Object.keys(transaction).length === 0)) return null;
  if (actions.length > 0) {
    if (Object.hasOwn(transaction, "action")) return null;
    transaction.action = actions;
  }
  return transaction;
}
