/** Keys whose values are secrets wherever they appear in a logged object. */
const SECRET_KEY = /pass(word)?|secret|token|api[_-]?key|apikey|authorization|security[_-]?key|credential|cookie|nonce|encryption|private/i;

/** Secrets that can sit inside free text (headers, form bodies, URLs). */
const SECRET_TEXT: [RegExp, string][] = [
  [/\b(Basic|Bearer)\s+[A-Za-z0-9+/=._~-]+/g, "$1 [REDACTED]"],
  [/\b(security_key|api_key|access_token|refresh_token|client_secret|password|key)=([^&\s"']+)/gi, "$1=[REDACTED]"],
  [/(\/\/[^:/@\s]+:)[^@/\s]+@/g, "$1[REDACTED]@"],
];

export const REDACTED = "[REDACTED]";

/** Prisma's validation errors print the data they were given as `name: "value"` lines, secrets included. */
const SECRET_MEMBER = new RegExp(String.raw`\b(\w*(?:${SECRET_KEY.source})\w*):\s*"(?:[^"\\]|\\.)*"`, "gi");

function redactErrorText(text: string): string {
  return redactText(text).replace(SECRET_MEMBER, `$1: "${REDACTED}"`);
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
