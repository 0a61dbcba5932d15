/**
 * The built-in rewrite (design 10.2), used when no provider key is set:
 * whitespace and typography cleanup only; instructions cannot be followed
 * without a model, which the answer's `engine` says.
 */
export function rewriteByRules(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .split("\n")
        .map((line) => line.replace(/[ \t]+/g, " ").trim())
        .join("\n")
        // One space at most is left between words; ` +` here would rescan a run from each of its spaces.
        .replace(/ ([,.;:!?])/g, "$1")
        .replace(/([,;:!?])(?=[A-Za-zÀ-ÿ])/g, "$1 ")
        .replace(/\.{3}/g, "…")
        .replace(/(^|[\s(])"(?=\S)/g, "$1“")
        .replace(/"/g, "”")
        .replace(/(\w)'(\w)/g, "$1’$2")
        .replace(/(^|[.!?]\s+)([a-zà-ÿ])/g, (_match, lead: string, letter: string) => lead + letter.toUpperCase())
        .replace(/\bi\b/g, "I"),
    )
    .filter((paragraph) => paragraph.trim())
    .join("\n\n")
    .trim();
}
