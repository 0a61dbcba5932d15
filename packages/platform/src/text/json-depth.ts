/** The deepest nesting of arrays and objects a JSON body may have; real payloads stay under 10. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * True when the JSON text nests arrays or objects deeper than `max`. One pass
 * over the bytes, no recursion, run before JSON.parse: a body nested
 * thousands deep is refused before anything walks it recursively (validation,
 * logging, redaction) and overflows the stack.
 */
export function nestedDeeperThan(text: Uint8Array | string, max = MAX_JSON_DEPTH): boolean {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPENERS.has(byte)) {
      depth += 1;
      if (depth > max) return true;
    } else if (CLOSERS.has(byte)) {
      depth -= 1;
    }
  }
  return false;
}
