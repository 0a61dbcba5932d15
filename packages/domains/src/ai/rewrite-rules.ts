/**
 * The built-in rewrite (design 10.2), used when no provider key is set:
 * whitespace and typography cleanup only; instructions cannot be followed
 * without a model, which the answer's `engine` says. It works in any
 * language: it changes no word, and links are left as they are.
 */

/** Links: punctuation inside them is not prose. */
const LINK = /(\bhttps?:\/\/\S+|\bwww\.\S+)/;

/**
 * The English "i" as a word, where English follows ("i think", "i'm"): in
 * Polish, Swedish, Catalan and others "i" is a word of its own.
 */
const ENGLISH_I = /\bi(?=['’](?:m|ll|ve|d)\b|\s(?:am|have|had|will|would|was|can|could|do|did|don['’]t|think|need|want|hope|know|see|just|also|should|must|guess|believe|agree|tried|checked|sent|got|saw)\b)/g;

function cleanProse(text: string): string {
  return (
    text
      // One space at most is left between words; ` +` here would rescan a run from each of its spaces.
      .replace(/ ([,.;:!?])/g, "$1")
      .replace(/([,;:!?])(?=[A-Za-zÀ-ÿ])/g, "$1 ")
      .replace(/\.{3}/g, "…")
      .replace(/(^|[\s(])"(?=\S)/g, "$1“")
      .replace(/"/g, "”")
      .replace(/(\p{L})'(\p{L})/gu, "$1’$2")
      .replace(ENGLISH_I, "I")
  );
}

/** Each sentence starts with a capital, after a Spanish "¿" or "¡" too. */
function capitaliseSentences(text: string): string {
  return text.replace(/(^|[.!?…]\s+)([¿¡]?)(\p{Ll})/gu, (_match, lead: string, mark: string, letter: string) => lead + mark + letter.toUpperCase());
}

export function rewriteByRules(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((paragraph) => {
      const lines = paragraph
        .split("\n")
        .map((line) => line.replace(/[ \t]+/g, " ").trim())
        .join("\n");
      // split() with a capturing group puts the links at the odd places.
      const cleaned = lines
        .split(LINK)
        .map((part, i) => (i % 2 ? part : cleanProse(part)))
        .join("");
      return capitaliseSentences(cleaned);
    })
    .filter((paragraph) => paragraph.trim())
    .join("\n\n")
    .trim();
}
