import winston from "winston";

/** Members every entry has, printed in their own columns (a top-level stack stays in the JSON file). */
const COLUMNS = new Set(["timestamp", "level", "service", "message", "stack"]);

/** A value longer than this is cut: the line is for reading, the file keeps the whole entry. */
const MAX_VALUE_LENGTH = 80;

const LEVEL_COLOURS: Record<string, number> = { error: 31, warn: 33, info: 32, debug: 90 };

function paint(text: string, code: number | undefined, colour: boolean): string {
  return colour && code !== undefined ? `\u001b[${code}m${text}\u001b[39m` : text;
}

function cut(text: string): string {
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

function clock(timestamp: unknown): string {
  const at = typeof timestamp === "string" ? new Date(timestamp) : new Date();
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, "0")}`;
}

function value(member: unknown): string {
  if (typeof member === "string") {
    const text = cut(member);
    return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
  }
  if (member === null || typeof member !== "object") return String(member);
  // An error, as the redaction left it: its message says what happened, the file has its stack.
  if ("message" in member && typeof member.message === "string") return value(member.message);
  return cut(JSON.stringify(member));
}

/**
 * One log entry as one line a person reads on a terminal: local time, level,
 * service, message, then each other member as key=value, long values cut.
 * The entry is the one the JSON lines carry, already redacted.
 */
export function prettyLine(entry: Record<string, unknown>, options: { colour: boolean }): string {
  const level = String(entry.level);
  const fields = Object.entries(entry)
    .filter(([key, member]) => !COLUMNS.has(key) && member !== undefined)
    .map(([key, member]) => `${key}=${value(member)}`);
  const message = String(entry.message ?? "").replace(/\r?\n/g, "⏎");
  return [
    paint(clock(entry.timestamp), 90, options.colour),
    paint(level.toUpperCase().padEnd(5), LEVEL_COLOURS[level], options.colour),
    paint(String(entry.service ?? ""), 36, options.colour),
    message,
    ...fields,
  ].join(" ");
}

const MESSAGE = Symbol.for("message");

/** The winston format writing prettyLine as a transport's output. */
export function prettyFormat(options: { colour: boolean }): winston.Logform.Format {
  return winston.format((info) => {
    (info as Record<symbol, unknown>)[MESSAGE] = prettyLine(info as Record<string, unknown>, options);
    return info;
  })();
}
