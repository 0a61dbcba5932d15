/**
 * The built-in embedding (design 10.2, 10.8) used when no provider key is
 * set: feature hashing of word unigrams, bigrams and character trigrams
 * into EMBEDDING_DIMENSIONS signed buckets, sublinear term weights, L2
 * normalised (so cosine similarity is a dot product). Deterministic and
 * local: questions and records embedded by it compare with each other only.
 */

/** Design 10.8: one dimension everywhere (Gemini's outputDimensionality and this). */
export const EMBEDDING_DIMENSIONS = 768;

/** The model id vector rows record for this embedding. */
export const LOCAL_EMBEDDING_MODEL = "local-hashing-v1";

const STOPWORDS = new Set(
  "a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my no not of on or our so than that the their them then there these they this to was we were what when where which who why will with would you your about after again all also am any because before being can't cannot does doesn't don't get got just more most other over same should some such too under until up very".split(" "),
);

/** A crude stemmer: plural and verb endings off, so "payments"/"payment" and "failing"/"failed" meet. */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ied")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

export function terms(text: string): string[] {
  return (text.toLowerCase().normalize("NFKD").match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOPWORDS.has(word) && word.length > 1).map(stem);
}

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function hashingEmbedding(text: string): Float32Array {
  const counts = new Map<string, number>();
  const add = (feature: string, weight: number) => counts.set(feature, (counts.get(feature) ?? 0) + weight);
  const words = terms(text);
  for (const [i, word] of words.entries()) {
    add(`w:${word}`, 1);
    if (i > 0) add(`b:${words[i - 1]} ${word}`, 0.5);
    // Trigrams catch spelling variants and compounds the stemmer misses ("checkout"/"check out").
    const padded = `^${word}$`;
    for (let j = 0; j + 3 <= padded.length; j += 1) add(`c:${padded.slice(j, j + 3)}`, 0.15);
  }
  const vector = new Float32Array(EMBEDDING_DIMENSIONS);
  for (const [feature, count] of counts) {
    const h = hash(feature);
    vector[h % EMBEDDING_DIMENSIONS]! += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(count));
  }
  return normalise(vector);
}

/** Scaled to length 1 in place (a zero vector stays zero). */
export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i += 1) vector[i]! /= norm;
  return vector;
}
