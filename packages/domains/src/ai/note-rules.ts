import { replaceTags } from "./html-to-text.ts";

/** Words that carry nothing in a time-entry description. */
const FILLER = new Set(["a", "an", "the", "i", "we", "just", "have", "has", "had", "been", "some", "that", "this", "it", "its", "our", "my", "your", "please", "also", "then", "so", "very", "really", "and", "to", "for", "of", "on", "in", "with", "at", "is", "was", "were", "are"]);
const GREETING = /^(hi|hello|hey|dear|good (morning|afternoon|evening)|thanks|thank you)\b[^.!?\n]*[.!?\n,]?\s*/i;

/** Spec 2, 4.5: a time entry's description is 2 to 8 words. */
export function wordCount(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}

const WORD_START = /[\p{L}\p{N}#]/u;
const WORD_END = /[\p{L}\p{N}]/u;

/**
 * A word without the punctuation around it (a leading `#` kept), as
 * `/^[^\p{L}\p{N}#]+|[^\p{L}\p{N}]+$/gu` strips it, by one scan from each end:
 * the regex retries a trailing run from each of its characters ("a!!!…!b").
 */
function wordCore(word: string): string {
  const chars = Array.from(word);
  let start = 0;
  while (start < chars.length && !WORD_START.test(chars[start]!)) start += 1;
  let end = chars.length;
  while (end > start && !WORD_END.test(chars[end - 1]!)) end -= 1;
  return chars.slice(start, end).join("");
}

/**
 * The built-in note optimiser (design 10.2): the first sentence that says
 * something, without greetings and filler words, cut to 8 words; never
 * fewer than 2.
 */
export function noteByRules(text: string): string {
  const plain = replaceTags(text, /<[^>]/g, " ").replace(/&nbsp;/g, " ").replace(GREETING, "").trim();
  const sentences = plain.split(/(?<=[.!?])\s+|\n+/).map((sentence) => sentence.trim()).filter(Boolean);
  const words = (sentences[0] ?? "")
    .split(/\s+/)
    .map(wordCore)
    .filter((word) => word && !FILLER.has(word.toLowerCase()))
    .slice(0, 8);
  while (words.length < 2) words.push(words.length ? "work" : "Support");
  const note = words.join(" ");
  return note.charAt(0).toUpperCase() + note.slice(1);
}
