import { decodeHTML } from "entities";

/*
 * HTML read as text: e-mail bodies and thread entries, customer text of up to
 * megabytes. Each step takes time linear in the input (docs/security.md,
 * "Text handling: linear time"): where a regex would retry a long scan from
 * every `<`, the scan is done once in code.
 */

/** An attribute of a quoted-history marker: its name as written (`class="`), and the values that mark the history. */
interface MarkerAttribute {
  name: RegExp;
  /** `value` runs to the next `"` (`closed`) or, without one, to the end of the text. */
  accepts(value: string, closed: boolean): boolean;
}

/**
 * A tag that starts the quoted history (Gmail, Apple Mail, Outlook,
 * Thunderbird): `<tag`, then `gap` or more characters other than `>`, then
 * one of the attributes, as in `/<div[^>]+class="[^"]*gmail_quote[^"]*"/i`.
 */
interface QuoteMarker {
  tag: RegExp;
  gap: 0 | 1;
  attributes: MarkerAttribute[];
}

const holds = (pattern: RegExp) => (value: string, closed: boolean) => closed && pattern.test(value);

/** In the order they are cut at. */
const QUOTE_MARKERS: QuoteMarker[] = [
  { tag: /<div/gi, gap: 1, attributes: [{ name: /class="/gi, accepts: holds(/gmail_quote/i) }] },
  {
    tag: /<blockquote/gi,
    gap: 0,
    attributes: [
      { name: /type="/gi, accepts: holds(/^cite$/i) },
      { name: /class="/gi, accepts: (value) => /gmail_quote/i.test(value) },
    ],
  },
  { tag: /<div/gi, gap: 1, attributes: [{ name: /id="/gi, accepts: holds(/^(?:divRplyFwdMsg|appendonsend)$/i) }] },
  { tag: /<div/gi, gap: 1, attributes: [{ name: /style="/gi, accepts: holds(/border-top:\s*solid\s+#[0-9a-f]{6}/i) }] },
  { tag: /<hr/gi, gap: 0, attributes: [{ name: /id="/gi, accepts: holds(/^stopSpelling$/i) }] },
  { tag: /<div/gi, gap: 1, attributes: [{ name: /class="/gi, accepts: (value) => /moz-cite-prefix/i.test(value) }] },
];

/** Whether the tag text html[from, to) (up to its first `>`) holds one of the marker's attributes. */
function holdsMarkerAttribute(html: string, from: number, to: number, marker: QuoteMarker): boolean {
  const attributes = html.slice(from, to);
  for (const attribute of marker.attributes) {
    attribute.name.lastIndex = 0;
    for (let found = attribute.name.exec(attributes); found; found = attribute.name.exec(attributes)) {
      const valueStart = from + found.index + found[0].length;
      const close = html.indexOf('"', valueStart);
      if (attribute.accepts(html.slice(valueStart, close < 0 ? html.length : close), close >= 0)) return true;
    }
  }
  return false;
}

/**
 * Where the first tag of `marker` starts, or -1. Every `<tag` before the
 * same `>` sees the same attributes or fewer, so only the first of them is
 * read: the regex retried each one up to the `>`, which is quadratic in a
 * run of `<div ` without one.
 */
function markerStart(html: string, marker: QuoteMarker): number {
  let tagEnd = -1;
  marker.tag.lastIndex = 0;
  for (let open = marker.tag.exec(html); open; open = marker.tag.exec(html)) {
    if (open.index < tagEnd) continue;
    const name = marker.tag.lastIndex;
    tagEnd = html.indexOf(">", name);
    if (tagEnd < 0) tagEnd = html.length;
    if (holdsMarkerAttribute(html, name + marker.gap, tagEnd, marker)) return open.index;
  }
  return -1;
}

/**
 * The text without `<script>`, `<style>` and `<head>` elements, as
 * `/<(script|style|head)\b[\s\S]*?<\/\1>/gi` removes them; once an element
 * has no end tag further on, its later start tags are not searched from
 * again (the regex would, to the end of the text each time).
 */
function withoutHiddenElements(html: string): string {
  const start = /<(script|style|head)\b/gi;
  const unclosed = new Set<string>();
  let text = "";
  let kept = 0;
  for (let found = start.exec(html); found; found = start.exec(html)) {
    const name = found[1]!.toLowerCase();
    if (unclosed.has(name)) continue;
    const end = new RegExp(`</${name}>`, "gi");
    end.lastIndex = start.lastIndex;
    if (!end.exec(html)) {
      unclosed.add(name);
      continue;
    }
    text += html.slice(kept, found.index);
    kept = end.lastIndex;
    start.lastIndex = kept;
  }
  return text + html.slice(kept);
}

/**
 * Each tag replaced: `start` (`/<li/gi`, or `/<[^>]/g` for any tag) up to the
 * next `>`, as `/<li[^>]*>/gi` or `/<[^>]+>/g` replace. Once a start has no
 * `>` after it, none later has; the regexes scanned to the end from each.
 */
export function replaceTags(text: string, start: RegExp, replacement: string): string {
  let replaced = "";
  let kept = 0;
  start.lastIndex = 0;
  for (let tag = start.exec(text); tag; tag = start.exec(text)) {
    const end = text.indexOf(">", start.lastIndex);
    if (end < 0) break;
    replaced += text.slice(kept, tag.index) + replacement;
    kept = end + 1;
    start.lastIndex = kept;
  }
  return replaced + text.slice(kept);
}

/** Whether the text holds an HTML tag of an e-mail body (`<p …>`, `<div …>`, ...). */
export function looksLikeHtml(text: string): boolean {
  const tag = /<(?:html|body|div|p|br|table|span|blockquote)\b/i.exec(text);
  // Any later `>` ends the tag; when the first tag has none, no later one has.
  return tag !== null && text.includes(">", tag.index + tag[0].length);
}

/** HTML to text: the quoted history is cut first (Gmail, Apple Mail, Outlook), then tags go and entities are decoded. */
export function htmlToText(html: string): string {
  let body = withoutHiddenElements(html);
  for (const marker of QUOTE_MARKERS) {
    const at = markerStart(body, marker);
    if (at > 0) body = body.slice(0, at);
  }
  body = body.replace(/<br\s*\/?>/gi, "\n").replace(/<\/(p|div|li|tr|h[1-6])>/gi, "\n");
  return replaceTags(replaceTags(body, /<li/gi, "- "), /<[^>]/g, "").replace(/&[#a-z0-9]+;/gi, (entity) => decodeHTML(entity));
}
