/*
 * "Top issues for ACME in the last 6 months": which organisation a chat
 * question names, and the time window. The question is request text, so it is
 * read in time linear in its length (docs/security.md, "Text handling: linear
 * time"); the answers are those of the single regex this replaces,
 * /\b(?:top|…)\b[^?]*?\b(?:issues?|…)\b[^?]*?\b(?:for|…)\s+(.+?)\s*[?.!]*$/i,
 * whose lazy gaps and trailing runs made it cubic in a run of spaces.
 */

const FIRST = /\b(?:top|main|most common|common|recurring|biggest|frequent|most frequent|key)\b/i;
const SECOND = /\b(?:issues?|problems?|themes?|topics?|requests?|complaints?)\b/gi;
const PREPOSITION = /\b(?:for|of|at|from|with)(?=\s)/gi;
/** `.` does not match these: the name is one line. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const SPACE = /\s/;
// Only from the first space of a run: from a later one the same match was found already, and retrying every start
// of a run is quadratic. Whatever follows the window is cut, as `.*$` did (the name holds no line break).
const WINDOW =
  /(?<!\s)\s+(?:(?:in|over|during|for|within)\s*)?(?:the\s+)?(?:last|past)\s+(\d+\s+)?(day|week|month|quarter|year)s?\b|(?<!\s)\s+(?:this|last)\s+(day|week|month|quarter|year)\b/i;
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30.44, quarter: 91.3, year: 365.25 };

/**
 * The organisation's name as written after the preposition, up to the closing
 * `?`, `.` or `!` and the spaces before them; null when the question is not
 * one. Each part is looked for within the text up to the next `?` (the regex
 * gaps could not cross one); within that, a later first word could only find
 * what the first one finds, so only the first is tried.
 */
function namedOrganisation(text: string): string | null {
  // Where the name may end: before the trailing spaces and closing marks, and never across a line break.
  let tail = text.length;
  while (tail > 0 && "?.!".includes(text[tail - 1]!)) tail -= 1;
  while (tail > 0 && SPACE.test(text[tail - 1]!)) tail -= 1;
  let lastBreak = -1;
  for (let i = tail - 1; i >= 0 && lastBreak < 0; i -= 1) if (LINE_BREAK.test(text[i]!)) lastBreak = i;
  // The name from `start`: up to `tail`, or one character when it starts in the closing marks; never a line break.
  const nameAt = (start: number): string | null => {
    if (start < tail) return start > lastBreak ? text.slice(start, tail) : null;
    return start < text.length && !LINE_BREAK.test(text[start]!) ? text[start]! : null;
  };

  let offset = 0;
  for (const part of text.split("?")) {
    const first = FIRST.exec(part);
    if (first) {
      SECOND.lastIndex = first.index + first[0].length;
      const second = SECOND.exec(part);
      if (second) {
        PREPOSITION.lastIndex = SECOND.lastIndex;
        for (let preposition = PREPOSITION.exec(part); preposition; preposition = PREPOSITION.exec(part)) {
          const spaces = offset + PREPOSITION.lastIndex;
          let end = spaces;
          while (end < text.length && SPACE.test(text[end]!)) end += 1;
          // The spaces give back characters to the name, from the last one, until it can start.
          for (let start = end; start > spaces; start -= 1) {
            const name = nameAt(start);
            if (name !== null) return name;
          }
        }
      }
    }
    offset += part.length + 1;
  }
  return null;
}

interface AskedOrganisation {
  /** The organisation's name as the question writes it. */
  name: string;
  since: Date | null;
  window: string;
}

/** The organisation a question asks about and its window; null when it is not such a question. */
export function readOrganisationQuestion(message: string, now: Date): AskedOrganisation | null {
  let name = namedOrganisation(message.trim());
  if (name === null) return null;
  let since: Date | null = null;
  let window = "all time";
  const span = WINDOW.exec(name);
  if (span) {
    name = name.slice(0, span.index);
    const unit = (span[2] ?? span[3])!.toLowerCase();
    const count = span[1] ? Number(span[1]) : 1;
    since = new Date(now.getTime() - count * UNIT_DAYS[unit]! * 86_400_000);
    window = `last ${count} ${unit}${count === 1 ? "" : "s"}`;
  }
  name = name.replace(/^the\s+/i, "").replace(/['’]s$/, "").trim();
  return name ? { name, since, window } : null;
}
