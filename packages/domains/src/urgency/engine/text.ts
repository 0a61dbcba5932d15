/**
 * How the built-in urgency engine reads a ticket's words (terms.ts
 * builds the model's terms from them), and whether the sender names a
 * workaround (the spec's modifier). Words are found by one scan of the text,
 * so the time is linear in it and no pattern can backtrack.
 */

/**
 * How much of a subject and of a body is read: what makes a ticket urgent is
 * said in its first lines; past this a body is pasted logs or data.
 */
export const READ_CHARS = 20_000;

/** Longest phrase, in words, that a concept lists. */
const MAX_PHRASE = 4;

/** Crude suffix stripping, applied alike to the text and to the lists, so "orders", "ordered" and "order" meet. */
export function stem(word: string): string {
  for (const suffix of ["ing", "ed", "s"]) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

const CONTRACTIONS: Record<string, string> = { cant: "cannot", wont: "will not", dont: "do not", doesnt: "does not", didnt: "did not", isnt: "is not", arent: "are not", wasnt: "was not", werent: "were not", couldnt: "could not", havent: "have not", hasnt: "has not" };

/** One token of letters, digits and apostrophes, lower case, as words: contractions opened ("can't" → "cannot"), stemmed. */
function tokenWords(token: string): string[] {
  const word = token.includes("'") ? token.replace(/'/g, "") : token;
  if (!word) return [];
  const opened = CONTRACTIONS[word] ?? (word.endsWith("nt") && token.endsWith("n't") ? `${word.slice(0, -2)} not` : word);
  return opened.split(" ").map(stem);
}

const TOKEN = /[\p{L}\p{N}%']+|[.?;\n]/gu;

/**
 * The text's sentences (split at . ? ; and line ends) as word lists, in one
 * scan: a text of a million empty lines is one scan, not a million. Repeated
 * tokens are read once.
 */
function sentences(text: string): string[][] {
  const out: string[][] = [];
  const seen = new Map<string, string[]>();
  let current: string[] = [];
  for (const [token] of text.toLowerCase().replace(/[’‘`]/g, "'").matchAll(TOKEN)) {
    if (token.length === 1 && ".?;\n".includes(token)) {
      if (current.length) out.push(current);
      current = [];
      continue;
    }
    let read = seen.get(token);
    if (!read) seen.set(token, (read = tokenWords(token)));
    for (const word of read) current.push(word);
  }
  if (current.length) out.push(current);
  return out;
}

/** The words of a text, as `sentences` reads them. */
export function words(text: string): string[] {
  return sentences(text).flat();
}

/** Phrases that name a way to keep going, and phrases that say there is none. Written from ordinary support wording, not from the labelled tickets. */
const CONCEPTS: Record<string, string[]> = {
  workaround: [
    "for now", "in the meantime", "meanwhile", "by hand", "manually", "still work", "still works", "instead", "can still", "workaround", "work around",
    "temporarily", "still get", "still receive", "still reach", "still be reached", "still take", "still use", "still ship", "still go", "as an alternative", "alternative", "other option", "nothing is lost", "double check", "by phone", "can use",
  ],
  no_workaround: ["no other way", "no workaround", "no alternative", "only way", "no way"],
};

/** Each concept's phrases as stemmed word sequences. */
const PHRASES: Map<string, string[]> = (() => {
  const index = new Map<string, string[]>();
  for (const [concept, phrases] of Object.entries(CONCEPTS)) {
    for (const phrase of phrases) {
      const key = words(phrase).join(" ");
      index.set(key, [...(index.get(key) ?? []), concept]);
    }
  }
  return index;
})();

/** The concepts of a run of words. */
function conceptsIn(sequence: string[]): Set<string> {
  const found = new Set<string>();
  for (let start = 0; start < sequence.length; start += 1) {
    let phrase = "";
    for (let end = start; end < start + MAX_PHRASE && end < sequence.length; end += 1) {
      phrase = end === start ? sequence[end]! : `${phrase} ${sequence[end]!}`;
      for (const concept of PHRASES.get(phrase) ?? []) found.add(concept);
    }
  }
  return found;
}

/** The spec's workaround modifier (spec 2, 4.1 rule 1): the sender names a way to keep going, and does not say there is none. */
export function namesWorkaround(fullSubject: string, fullBody: string): boolean {
  const found = new Set<string>();
  for (const sentence of sentences(`${fullSubject.slice(0, READ_CHARS)}\n${fullBody.slice(0, READ_CHARS)}`)) for (const concept of conceptsIn(sentence)) found.add(concept);
  return found.has("workaround") && !found.has("no_workaround");
}
