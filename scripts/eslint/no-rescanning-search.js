import { RegExpParser } from "@eslint-community/regexpp";

/**
 * An ESLint rule for the searches eslint-plugin-regexp's no-super-linear-move
 * does not see: a pattern that starts with a literal of several characters
 * (`<div`) followed by an unbounded quantifier that accepts that literal
 * again (`[^>]+`). In `<div <div <div …` without a `>`, the search scans
 * from every `<div` to the end of the text: quadratic (docs/security.md,
 * "Text handling: linear time"). Sticky regexes are tried at one position
 * and are left alone; patterns built with `new RegExp` are not read.
 */

const parser = new RegExpParser({ ecmaVersion: 2025 });

/** The elements of an alternative in matching order, groups of one alternative opened. */
function* leadingElements(elements) {
  for (const element of elements) {
    if ((element.type === "Group" || element.type === "CapturingGroup") && element.alternatives.length === 1) yield* leadingElements(element.alternatives[0].elements);
    else yield element;
  }
}

/** The texts of a group whose alternatives are all plain characters (`(script|style|head)`); else null. */
function literalAlternatives(element) {
  if (element.type !== "Group" && element.type !== "CapturingGroup") return null;
  const texts = element.alternatives.map((alternative) => (alternative.elements.every((part) => part.type === "Character") ? alternative.elements.map((part) => String.fromCodePoint(part.value)).join("") : null));
  return texts.includes(null) ? null : texts;
}

/** The literal (alternatives joined by `|`) and the quantifier that takes it again, when the alternative starts so; else null. */
function rescanningStart(alternative, flags) {
  let literal = "";
  let chars = "";
  let shortest = 0;
  const elements = [...leadingElements(alternative.elements)];
  for (const [index, element] of elements.entries()) {
    const texts = element.type === "Character" ? [String.fromCodePoint(element.value)] : literalAlternatives(element);
    if (texts) {
      literal += texts.length > 1 ? `(${texts.join("|")})` : texts[0];
      chars += texts.join("");
      shortest += Math.min(...texts.map((text) => text.length));
    } else if (element.type === "Assertion" && element.kind !== "start") continue;
    // A quantifier that ends the pattern always matches where it starts: the search never fails after a scan.
    else if (element.type === "Quantifier" && element.max === Infinity && shortest > 1 && index < elements.length - 1) {
      const takes = new RegExp(`^(?:${element.element.raw})$`, flags);
      return [...chars].every((char) => takes.test(char)) ? { literal, quantifier: element.raw } : null;
    } else return null;
  }
  return null;
}

export default {
  meta: {
    type: "problem",
    docs: { description: "disallow searches that rescan from every repetition of their opening literal" },
    schema: [],
    messages: {
      rescan: "A search from each `{{literal}}` runs through `{{quantifier}}`, which takes `{{literal}}` again: repeated without what ends it, the search is quadratic. Scan in code (find the end once) or bound the quantifier.",
    },
  },
  create(context) {
    return {
      Literal(node) {
        if (!node.regex || node.regex.flags.includes("y")) return;
        const { pattern, flags } = node.regex;
        const unicode = flags.includes("u");
        const unicodeSets = flags.includes("v");
        const ast = parser.parsePattern(pattern, 0, pattern.length, { unicode, unicodeSets });
        const testFlags = flags.replace(/[dgy]/g, "");
        for (const alternative of ast.alternatives) {
          const found = rescanningStart(alternative, testFlags);
          if (found) context.report({ node, messageId: "rescan", data: found });
        }
      },
    };
  },
};
