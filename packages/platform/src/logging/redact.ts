/** Keys whose values are secrets wherever they appear in a logged object. */
const SECRET_KEY = /pass(word)?|secret|token|api[_-]?key|apikey|authorization|security[_-]?key|credential|cookie|nonce|encryption|private/i;

/** Secrets that can sit inside free text (headers, form bodies, URLs). */
const SECRET_TEXT: [RegExp, string][] = [
  [/\b(Basic|Bearer)\s+[A-Za-z0-9+/=._~-]+/g, "$1 [REDACTED]"],
  [/\b(security_key|api_key|access_token|refresh_token|client_secret|password|key)=([^&\s"']+)/gi, "$1=[REDACTED]"],
  [/(\/\/[^:/@\s]+:)[^@/\s]+@/g, "$1[REDACTED]@"],
];

export const REDACTED = "[REDACTED]";

/**
 * The opening of a `name: "value"` member, as Prisma's validation errors
 * print the data they were given, secrets included. A name is matched from
 * the start of its run only, so a long run is read once, not from each of its
 * characters; whether it is a secret's is SECRET_KEY's to say.
 */
const MEMBER_OPENING = /(?<![\w-])([\w-]+):\s*"/g;

/** Where the JSON-style string that starts at `start` ends (past its closing quote), or -1 when it does not. */
function quotedEnd(text: string, start: number): number {
  for (let at = start; at < text.length; at += 1) {
    if (text[at] === "\\") at += 1;
    else if (text[at] === '"') return at + 1;
  }
  return -1;
}

/**
 * Each secret-named member's value replaced, in one pass: a value is read
 * from its opening quote to its closing one once. A value that never closes
 * ends the pass, as every later opening lies inside it and would not close
 * either.
 */
function redactSecretMembers(text: string): string {
  let out = "";
  let copied = 0;
  MEMBER_OPENING.lastIndex = 0;
  for (let opening = MEMBER_OPENING.exec(text); opening; opening = MEMBER_OPENING.exec(text)) {
    const end = quotedEnd(text, MEMBER_OPENING.lastIndex);
    if (end < 0) break;
    if (SECRET_KEY.test(opening[1]!)) {
      out += `${text.slice(copied, opening.index)}${opening[1]}: "${REDACTED}"`;
      copied = end;
    }
    MEMBER_OPENING.lastIndex = end;
  }
  return out + text.slice(copied);
}

function redactErrorText(text: string): string {
  return redactSecretMembers(redactText(text));
}

/** Every pattern above needs one of these; most logged text has none, and skips the three scans. */
const MAY_HOLD_SECRET = /Basic|Bearer|=|@/;

export function redactText(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  return SECRET_TEXT.reduce((acc, [pattern, replacement]) => acc.replace(pattern, replacement), text);
}

/** A deep copy of `value` with secret-named members and secret-looking text replaced. */
export function redact(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return redactText(value);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, seen));
  if (value instanceof Error) {
    return { name: value.name, message: redactErrorText(value.message), stack: value.stack && redactErrorText(value.stack) };
  }
  if (value instanceof Date || Buffer.isBuffer(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && member !== null && member !== undefined && member !== "" ? REDACTED : redact(member, seen);
  }
  return out;
}
