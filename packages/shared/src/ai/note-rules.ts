/** Words that carry nothing in a time-entry description. */
const FILLER = new Set(["a", "an", "the", "i", "we", "just", "have", "has", "had", "been", "some", "that", "this", "it", "its", "our", "my", "your", "please", "also", "then", "so", "very", "really", "and", "to", "for", "of", "on", "in", "with", "at", "is", "was", "were", "are"]);
const GREETING = /^(hi|hello|hey|dear|good (morning|afternoon|evening)|thanks|thank you)\b[^.!?\n]*[.!?\n,]?\s*/i;

/** Spec 2, 4.5: a time entry's description is 2 to 8 words. */
export function wordCount(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}

/**
 * The built-in note optimiser (design 10.2): the first sentence that says
 * something, without greetings and filler words, cut to 8 words; never
 * fewer than 2.
 */
export function noteByRules(text: string): string {
  const plain = text.replace(/<[^>]+>/g, " ").replace(/&nbsp;/g, " ").replace(GREETING, "").trim();
  const sentences = plain.split(/(?<=[.!?])\s+|\n+/).map((sentence) => sentence.trim()).filter(Boolean);
  const words = (sentences[0] ?? "")
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}#]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((word) => word && !FILLER.has(word.toLowerCase()))
    .slice(0, 8);
  while (words.length < 2) words.push(words.length ? "work" : "Support");
  const note = words.join(" ");
  return note.charAt(0).toUpperCase() + note.slice(1);
}
