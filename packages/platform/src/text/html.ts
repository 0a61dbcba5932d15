import sanitizeHtml from "sanitize-html";

/** Design 10.8: HTML shown to people keeps only an allow-list of tags, and links only to http(s). */
export function cleanHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ["p", "br", "ul", "ol", "li", "strong", "em", "code", "a"],
    allowedAttributes: { a: ["href"] },
    allowedSchemes: ["http", "https"],
  }).trim();
}
