import { READ_CHARS, words } from "./text.ts";

/**
 * What the built-in urgency model reads in a ticket (docs/urgency-engine.md):
 * two blocks of terms, each counted.
 * - `w:` words (stemmed, contractions opened) and word pairs: "hacked",
 *   "not reach".
 * - `g:` letter runs of 2 to 5 inside each word, the word's edges marked with
 *   a space: " hack", "ked ". They carry what a misspelling or an unseen
 *   form of a word shares with the known one.
 */

const LETTER_RUNS = /[\p{L}\p{N}]+/gu;

export type TermBlock = "w" | "g";

/** The block a term belongs to, by its prefix. */
export function termBlock(term: string): TermBlock {
  return term[0] === "g" ? "g" : "w";
}

function add(counts: Map<string, number>, term: string): void {
  counts.set(term, (counts.get(term) ?? 0) + 1);
}

/** The terms of a ticket with how often each occurs. */
export function urgencyTerms(subject: string, body: string): Map<string, number> {
  const text = `${subject.slice(0, READ_CHARS)}\n${body.slice(0, READ_CHARS)}`;
  const counts = new Map<string, number>();
  const sequence = words(text);
  sequence.forEach((word, i) => {
    add(counts, `w:${word}`);
    if (i > 0) add(counts, `w:${sequence[i - 1]} ${word}`);
  });
  for (const [run] of text.toLowerCase().matchAll(LETTER_RUNS)) {
    const padded = ` ${run} `;
    for (let size = 2; size <= 5; size += 1) {
      for (let start = 0; start + size <= padded.length; start += 1) add(counts, `g:${padded.slice(start, start + size)}`);
    }
  }
  return counts;
}
