import type { PrismaClient } from "../platform/db.ts";
import { truncateCodePoints } from "../platform/text.ts";

export type DocumentSource = "wiki" | "docs" | "brand";

/** `<path-slug>` of spec 2, 2.4: the path's words joined by dashes, without the file extension. */
export function pathSlug(location: string): string {
  const path = /^https?:\/\//i.test(location) ? new URL(location).pathname : location;
  const slug = path
    .replace(/\.(md|markdown|txt|html?)$/i, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return truncateCodePoints(slug || "index", 180);
}

/** `<domain>`: the URL's host, or a file named after its domain (`acme.example.md`). */
export function brandDomain(location: string): string {
  if (/^https?:\/\//i.test(location)) return new URL(location).hostname.replace(/^www\./, "");
  return (location.split(/[\\/]/).pop() ?? location).replace(/\.(md|markdown|txt|html?)$/i, "").toLowerCase();
}

/**
 * Stores a wiki article, documentation page or brand description (`pnpm cli
 * knowledge:add`); the same source and location again replaces its content.
 * Its vector id follows spec 2, 2.4: `docs-<id>`, `<path-slug>` or `<domain>`.
 */
export async function saveDocument(prisma: PrismaClient, input: { source: DocumentSource; location: string; title: string; content: string }) {
  const fields = { title: truncateCodePoints(input.title, 255), content: input.content };
  const document = await prisma.knowledgeDocument.upsert({ where: { source_location: { source: input.source, location: input.location } }, create: { source: input.source, location: input.location, ...fields }, update: fields });
  const vectorId = input.source === "wiki" ? `docs-${document.id}` : input.source === "docs" ? pathSlug(input.location) : brandDomain(input.location);
  return document.vector_id === vectorId ? document : prisma.knowledgeDocument.update({ where: { id: document.id }, data: { vector_id: vectorId } });
}
